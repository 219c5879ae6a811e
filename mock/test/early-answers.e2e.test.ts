import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const BODY = Buffer.alloc(2 * 1024 * 1024, 0x20);

/** POSTs the 2 MB body with node:http; the status read, or the error that came instead. */
function post(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/items/skus`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(BODY.length), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end(BODY);
  });
}

/**
 * A client that sends its whole body before it reads anything (many do): headers, then the body in 64 KB chunks, and
 * only once all is written (or refused) does it read. Without a lingering close the mock's reset reaches it before it
 * reads, and takes the answer with it.
 */
function postThenRead(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let failed = '';
    socket.pause();
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failed = error.code ?? 'error';
    });
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? (failed || 'closed without an answer')));
    socket.write(
      `POST /v1/items/skus HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`,
    );
    let offset = 0;
    const next = () => {
      if (offset >= BODY.length || socket.destroyed) {
        setTimeout(() => {
          socket.end();
          socket.resume();
        }, 50);
        return;
      }
      const chunk = BODY.subarray(offset, offset + 65_536);
      offset += chunk.length;
      socket.write(chunk, () => setTimeout(next, 2));
    };
    next();
  });
}

/** The head of a POST declaring `contentLength` bytes of body, on a socket of its own; `text()` is what came back so far. */
function rawPost(
  port: number,
  contentLength: number,
  options: { allowHalfOpen?: boolean } = {},
): { socket: Socket; text: () => string } {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: options.allowHalfOpen ?? false });
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
  });
  socket.write(
    `POST /v1/items/skus HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
  return { socket, text: () => text };
}

describe('an answer sent before the body was read', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ bodyLimit: 1024 * 1024 });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('reaches 150 clients of 2 MB bodies as 413, one after another and five at a time', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 75; i++) statuses.push(await post(h.url, { authorization: `Bearer ${h.admin}` }));
    for (let i = 0; i < 15; i++) statuses.push(...(await Promise.all([1, 2, 3, 4, 5].map(() => post(h.url)))));
    expect(statuses).toHaveLength(150);
    expect(statuses.filter((s) => s !== '413')).toEqual([]);
  });

  it('reaches a client that writes its whole body before reading', async () => {
    const port = Number(new URL(h.url).port);
    const statuses: string[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await postThenRead(port));
    expect(statuses).toEqual(Array(10).fill('413'));
  });

  it('closes the connection without a reset for a client that stops sending its body at the answer', async () => {
    const raw = rawPost(Number(new URL(h.url).port), BODY.length);
    const failures: string[] = [];
    raw.socket.on('error', (error: NodeJS.ErrnoException) => failures.push(error.code ?? 'error'));
    const closed = new Promise<void>((resolve) => raw.socket.on('close', () => resolve()));
    // A quarter of the body, then, once the answer says the connection closes, no more of it (RFC 9112, 9.5).
    raw.socket.write(BODY.subarray(0, BODY.length / 4));
    const deadline = Date.now() + 10_000;
    while (!/connection: close/i.test(raw.text()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    raw.socket.end();
    await closed;
    expect(raw.text()).toMatch(/^HTTP\/1\.1 413/);
    expect(failures).toEqual([]);
  });

  it('cuts off a client that goes on sending its body after the answer (at most 5 s after it)', async () => {
    // It keeps sending after the mock closed its side (half-open), as a client that ignores the close would.
    const raw = rawPost(Number(new URL(h.url).port), 64 * BODY.length, { allowHalfOpen: true });
    raw.socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => raw.socket.on('close', () => resolve()));
    // Up to 64 times 2 MB, each write after the previous one was taken: flow control holds the writes, and the mock
    // ends the connection before they are all taken.
    let written = 0;
    for (let i = 0; i < 64 && !raw.socket.destroyed; i++) {
      await new Promise<void>((resolve) => raw.socket.write(BODY, () => resolve()));
      written += BODY.length;
    }
    await closed;
    expect(raw.text()).toMatch(/^HTTP\/1\.1 413/);
    expect(written).toBeLessThan(64 * BODY.length);
  });

  it('keeps the connection of a request whose body was read', async () => {
    const reply = await h.call('POST', '/v1/items/skus', { raw: '{}' });
    expect(reply.headers.connection).not.toBe('close');
  });

  /** Sends `request` three times on one socket, each after the answer to the one before; the answers' status lines. */
  async function threeOnOneSocket(request: string): Promise<{ statuses: string[]; text: string }> {
    const socket = connect(Number(new URL(h.url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    // A status line follows the previous answer's body directly: not at a line's start.
    const statuses = () => text.match(/HTTP\/1\.1 \d{3} /g) ?? [];
    for (let answers = 1; answers <= 3 && !socket.destroyed; answers++) {
      socket.write(request);
      const deadline = Date.now() + 10_000;
      while (statuses().length < answers && !socket.destroyed && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
    }
    socket.destroy();
    return { statuses: statuses(), text };
  }

  it('keeps the connection of a request answered at once, as node:http emits it (a cached token, a list page)', async () => {
    // Answered within the parser's reading of the chunk that carried the request, before it ended the message: none
    // may be taken for a request with its body unread.
    const get = `GET /v1/items/skus?pageSize=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.admin}\r\n\r\n`;
    const got = await threeOnOneSocket(get);
    expect(got.statuses).toEqual(Array(3).fill('HTTP/1.1 200 '));
    expect(got.text).not.toMatch(/^connection: close/im);
  });

  it('keeps the connection of a small body that came whole with its head, answered before it was read', async () => {
    // A GET with a body (no route reads it) and a POST refused by a hook before its body is read (two Authorization
    // headers): the body came in the same chunk, so nothing is left unread.
    const body = '{"pageSize":1}';
    const getWithBody = `GET /v1/items/skus?pageSize=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.admin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const twice = `POST /v1/items/families/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.admin}\r\nAuthorization: Bearer ${h.admin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    for (const [request, status] of [
      [getWithBody, '200'],
      [twice, '401'],
    ] as const) {
      const got = await threeOnOneSocket(request);
      expect(got.statuses).toEqual(Array(3).fill(`HTTP/1.1 ${status} `));
      expect(got.text).not.toMatch(/^connection: close/im);
    }
  });
});

describe('early answers under a small connection cap', () => {
  let h: Harness;

  beforeAll(async () => {
    // A cap of 8: at most 2 connections linger.
    h = await startHarness({ bodyLimit: 1024 * 1024, maxConnections: 8 });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('never let lingering connections fill the cap: after 12 clients that keep their sockets, another is served', async () => {
    const port = Number(new URL(h.url).port);
    const held: Socket[] = [];
    for (let i = 0; i < 12; i++) {
      // Half-open clients that never close: each of them would be held until the lingering bound (5 s).
      const raw = rawPost(port, BODY.length, { allowHalfOpen: true });
      raw.socket.on('error', () => {});
      held.push(raw.socket);
      raw.socket.write(BODY.subarray(0, 65_536));
      const deadline = Date.now() + 5_000;
      while (!raw.text() && !raw.socket.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    }
    try {
      const reply = await h.call('GET', '/__mock/health', { token: null });
      expect(reply.status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
