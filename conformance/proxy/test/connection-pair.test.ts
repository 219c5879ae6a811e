import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CapturedExchange, type RunningForwarder, startForwardingProxy } from '../forward.js';

/**
 * The proxy's connection handling seen from raw sockets: what a client library rarely does (pipelining, HTTP/1.0,
 * Expect, bytes that are not HTTP) and a target that closes its connections.
 */

let target: Server;
let targetUrl: string;
/** Connections the target accepted. */
let accepted = 0;

beforeAll(async () => {
  target = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const text = `${req.method} ${req.url} ${body}`;
      // `/close`: the target ends its connection after answering (Connection: close).
      if (req.url === '/close') res.setHeader('connection', 'close');
      // `/not-modified`: a 304 that names the length of the body it does not send (as servers may).
      if (req.url === '/not-modified') {
        res.writeHead(304, { 'content-length': '5' });
        res.end();
        return;
      }
      // `/echo-header`: the bytes of the request's X-Name header (node:http reads values as latin1) in hex, and the
      // value back as a response header (which node:http writes as UTF-8).
      if (req.url === '/echo-header') {
        const value = req.headers['x-name'] as string;
        const hex = Buffer.from(value, 'latin1').toString('hex');
        res.writeHead(200, { 'x-echo': value, 'content-type': 'text/plain', 'content-length': hex.length });
        res.end(hex);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  target.on('connection', () => accepted++);
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

const running: RunningForwarder[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.close()));
});

async function proxy(): Promise<{ port: number; seen: CapturedExchange[] }> {
  const seen: CapturedExchange[] = [];
  const p = await startForwardingProxy({ target: targetUrl, onExchange: (x) => seen.push(x) });
  running.push(p);
  return { port: p.port, seen };
}

interface ExchangeOptions {
  /** Resolve once this many whole answers arrived (the connection stays open on keep-alive); else on close. */
  answers?: number;
  /** Bound of the whole exchange, ms: the socket is destroyed then and what arrived is returned. */
  waitMs?: number;
  /** Write each part once the answers to those before it came. */
  inTurn?: boolean;
}

/**
 * Writes `parts` (with a pause between them) on one connection; resolves with all it got once `answers` whole answers
 * arrived, the proxy closed the connection, or `waitMs` passed.
 */
function exchange(
  port: number,
  parts: string[],
  { answers: count, waitMs = 5000, inTurn = false }: ExchangeOptions = {},
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    let written = 0;
    const finishIfWhole = () => {
      if (count !== undefined && written === parts.length && holdsAnswers(got, count)) socket.destroy();
    };
    socket.on('data', (c: Buffer) => {
      got += c.toString('latin1');
      finishIfWhole();
    });
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    (async () => {
      for (const [i, part] of parts.entries()) {
        while (inTurn && answers(got).length < i && !socket.destroyed) await new Promise((r) => setTimeout(r, 5));
        if (socket.destroyed) return;
        socket.write(Buffer.from(part, 'latin1'));
        await new Promise((r) => setTimeout(r, 30));
        written = i + 1;
      }
      finishIfWhole();
    })();
  });
}

/** Whether `raw` holds `count` whole answers: each head ended, each body as long as its Content-Length (1xx, 204 and 304 have none). */
function holdsAnswers(raw: string, count: number): boolean {
  const parts = raw.split(/(?=HTTP\/1\.1 )/).filter(Boolean);
  if (parts.length < count) return false;
  return parts.every((part) => {
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd < 0) return false;
    const status = Number(part.slice(9, 12));
    if (status < 200 || status === 204 || status === 304) return true;
    const length = /\r\ncontent-length: *(\d+)/i.exec(part.slice(0, headEnd));
    return length !== null && part.length - headEnd - 4 >= Number(length[1]);
  });
}

/** The status lines and bodies of the answers in `raw`, in order. */
function answers(raw: string): string[] {
  return raw
    .split(/(?=HTTP\/1\.1 )/)
    .filter(Boolean)
    .map((a) => `${a.split('\r\n')[0]} | ${a.slice(a.indexOf('\r\n\r\n') + 4)}`);
}

describe('the proxy on one client connection', () => {
  it('answers pipelined requests in order, each forwarded and reported', async () => {
    const { port, seen } = await proxy();
    const raw = await exchange(
      port,
      [
        'GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /c HTTP/1.1\r\nHost: x\r\n\r\n',
      ],
      { answers: 3 },
    );
    expect(answers(raw)).toEqual([
      'HTTP/1.1 200 OK | GET /a ',
      'HTTP/1.1 200 OK | POST /b abc',
      'HTTP/1.1 200 OK | GET /c ',
    ]);
    // As node:http tells a keep-alive client how long an idle connection stays open.
    expect(raw.match(/\r\nKeep-Alive: timeout=5\r\n/g)).toHaveLength(3);
    expect(seen.map((x) => [x.seq, x.target, x.status])).toEqual([
      [1, '/a', 200],
      [2, '/b', 200],
      [3, '/c', 200],
    ]);
  });

  it('forwards and reports a request with more header lines than the parser hands over at once (40)', async () => {
    const { port, seen } = await proxy();
    const lines = Array.from({ length: 40 }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
    const raw = await exchange(port, [`GET /many HTTP/1.1\r\nHost: x\r\n${lines}\r\n`], { answers: 1 });
    expect(answers(raw)).toEqual(['HTTP/1.1 200 OK | GET /many ']);
    const headers = seen[0]?.requestHeaders ?? [];
    expect(headers).toHaveLength(41);
    expect(headers.at(-1)).toEqual(['X-H39', 'v39']);
  });

  it('closes after the answer to an HTTP/1.0 request without keep-alive', async () => {
    const { port } = await proxy();
    const raw = await exchange(port, ['GET /old HTTP/1.0\r\n\r\n']);
    expect(answers(raw)).toEqual(['HTTP/1.1 200 OK | GET /old ']);
    expect(raw).toMatch(/\r\nConnection: close\r\n/);
  });

  it('says 100 Continue to a client that expects it, then forwards the body', async () => {
    const { port } = await proxy();
    const raw = await exchange(
      port,
      ['PUT /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n', 'body'],
      { answers: 2 },
    );
    expect(raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true);
    expect(answers(raw.slice('HTTP/1.1 100 Continue\r\n\r\n'.length))).toEqual(['HTTP/1.1 200 OK | PUT /e body']);
  });

  it('opens another target connection after the target closed one, on the same client connection', async () => {
    const { port } = await proxy();
    const before = accepted;
    // The second request once the first is answered: sent earlier, it would be pipelined onto the connection the
    // target closes without answering it (a 502), which a loaded machine makes likely.
    const raw = await exchange(
      port,
      ['GET /close HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /after HTTP/1.1\r\nHost: x\r\n\r\n'],
      { answers: 2, inTurn: true },
    );
    expect(answers(raw)).toEqual(['HTTP/1.1 200 OK | GET /close ', 'HTTP/1.1 200 OK | GET /after ']);
    expect(accepted - before).toBe(2);
  });

  it('passes header bytes outside ASCII through unchanged, both ways', async () => {
    const { port, seen } = await proxy();
    // "café ÿ" as latin1 bytes (0xE9, 0xFF): what a header carries is bytes, whatever their encoding.
    const ask = ['GET /echo-header HTTP/1.1\r\nHost: x\r\nX-Name: caf\xe9 \xff\r\n\r\n'];
    const raw = await exchange(port, ask, { answers: 1 });
    const direct = await exchange(Number(new URL(targetUrl).port), ask, { answers: 1 });
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe('636166e920ff');
    const echoed = (answer: string) => answer.split('\r\n').find((line) => line.startsWith('x-echo: '));
    expect(echoed(raw)).toBe(echoed(direct));
    expect(seen[0]?.requestHeaders).toContainEqual(['X-Name', 'caf\xe9 \xff']);
  });

  it('takes a 304 with a Content-Length as bodiless, and answers the request after it on the same connection', async () => {
    const { port } = await proxy();
    const raw = await exchange(
      port,
      ['GET /not-modified HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n'],
      { answers: 2 },
    );
    expect(answers(raw)).toEqual(['HTTP/1.1 304 Not Modified | ', 'HTTP/1.1 200 OK | GET /after ']);
  });

  it('does not carry the trailers of a chunked upload into the next request', async () => {
    const { port, seen } = await proxy();
    const raw = await exchange(
      port,
      [
        'POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n' +
          'GET /next HTTP/1.1\r\nHost: x\r\n\r\n',
      ],
      { answers: 2 },
    );
    expect(answers(raw)).toEqual(['HTTP/1.1 200 OK | POST /t abc', 'HTTP/1.1 200 OK | GET /next ']);
    expect(seen[1]?.requestHeaders).toEqual([['Host', 'x']]);
  });

  // Heads that Node's parser refuses, so a target behind the proxy would frame the same bytes differently or not
  // at all: refused as a Node target refuses them (400), nothing forwarded.
  it.each([
    [
      'Content-Length beside Transfer-Encoding',
      'Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ],
    ['Content-Length twice', 'Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc'],
    ['a Content-Length that is not digits', 'Content-Length: +3\r\n\r\nabc'],
    ['a blank before the colon', 'Content-Length : 3\r\n\r\nabc'],
    ['a header line without a colon', 'Content-Length 3\r\n\r\nabc'],
    ['a folded header line', 'X-A: a\r\n b\r\nContent-Length: 3\r\n\r\nabc'],
    ['a control character in a value', 'X-A: a\x01b\r\nContent-Length: 3\r\n\r\nabc'],
    [
      'a Transfer-Encoding that does not end with chunked',
      'Transfer-Encoding: chunked, gzip\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ],
  ])('answers a request with %s with 400 and forwards nothing', async (_, rest) => {
    const { port, seen } = await proxy();
    const before = accepted;
    const raw = await exchange(port, [`POST /bad HTTP/1.1\r\nHost: x\r\n${rest}`]);
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(seen).toEqual([]);
    expect(accepted).toBe(before);
  });

  it('answers a TLS handshake sent to it at once with 400, not after waiting for a line', async () => {
    const { port } = await proxy();
    const started = Date.now();
    const raw = await exchange(port, ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03']);
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers bytes that are not HTTP with 400 and closes, forwarding and reporting nothing', async () => {
    const { port, seen } = await proxy();
    const before = accepted;
    const raw = await exchange(port, ['NOT HTTP AT ALL\r\n\r\n']);
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(seen).toEqual([]);
    expect(accepted).toBe(before);
  });
});
