import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';

/** One raw loopback connection and what became of it: the bytes it got and whether (and in what order) it closed. */
interface Watched {
  readonly socket: Socket;
  readonly received: () => string;
  readonly closed: Promise<number>;
}

let closings = 0;

/** Opens a raw connection; `closed` resolves with the rank of its closing among all watched connections. */
function watch(port: number, start?: (socket: Socket) => void, from = '127.0.0.1'): Watched {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  socket.on('error', () => undefined);
  if (start) socket.on('connect', () => start(socket));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(closings++)));
  return { socket, received: () => text, closed };
}

/** Writes `line` every 200 ms until the connection closes: a client that never finishes its request. */
function trickle(socket: Socket, first: string, line: string): void {
  socket.write(first);
  const timer = setInterval(() => {
    if (socket.writable) socket.write(line);
  }, 200);
  socket.on('close', () => clearInterval(timer));
}

describe('timeouts and the connection cap', () => {
  it('closes trickling connections at their timeout, refuses one over the cap at once, then serves a tenant', async () => {
    const h = await startHarness({ headersTimeout: 1000, requestTimeout: 2000, maxConnections: 12 });
    const port = Number(new URL(h.url).port);
    const slow: Watched[] = [];
    try {
      // 4 silent, 4 trickling their headers, 4 trickling their body: 12 connections, the cap.
      for (let i = 0; i < 4; i++) slow.push(watch(port));
      for (let i = 0; i < 4; i++)
        slow.push(
          watch(port, (s) => trickle(s, 'GET /v1/items/skus HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n')),
        );
      for (let i = 0; i < 4; i++)
        slow.push(
          watch(port, (s) =>
            trickle(
              s,
              `POST /v1/items/skus HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.admin}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
              ' ',
            ),
          ),
        );
      await Promise.all(slow.map((w) => new Promise((resolve) => w.socket.once('connect', resolve))));
      // Let the server accept all twelve before the thirteenth comes.
      await new Promise((resolve) => setTimeout(resolve, 100));

      const over = watch(port);
      const overRank = await over.closed;
      expect(over.received()).toBe('');

      const ranks = await Promise.all(slow.map((w) => w.closed));
      // The one over the cap was closed before any of the slow ones, each of which the timeouts closed.
      for (const rank of ranks) expect(rank).toBeGreaterThan(overRank);
      for (const w of slow) expect(w.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);

      const reply = await h.call('GET', '/v1/items/skus?pageSize=1');
      expect(reply.status, reply.text).toBe(200);
    } finally {
      for (const w of slow) w.socket.destroy();
      await h.close();
    }
  });

  it('closes a connection over the cap of its client address at once, while another address still gets in', async () => {
    const h = await startHarness({ maxConnectionsPerSource: 3 });
    const port = Number(new URL(h.url).port);
    // Another client address on loopback: 127.0.0.0/8 is all loopback on Linux, so the mock sees 127.0.0.2.
    const health = (from: string) =>
      watch(port, (s) => s.write('GET /__mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'), from);
    const held = [watch(port), watch(port), watch(port)];
    try {
      await Promise.all(held.map((w) => new Promise((resolve) => w.socket.once('connect', resolve))));
      await new Promise((resolve) => setTimeout(resolve, 100));

      const over = health('127.0.0.1');
      await over.closed;
      expect(over.received()).toBe('');

      const other = health('127.0.0.2');
      await other.closed;
      expect(other.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);

      // A held connection closes: its address has room again.
      held[0]?.socket.destroy();
      await held[0]?.closed;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = health('127.0.0.1');
      await again.closed;
      expect(again.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    } finally {
      for (const w of held) w.socket.destroy();
      await h.close();
    }
  });

  it('refuses a request timeout shorter than the headers timeout', async () => {
    await expect(startHarness({ headersTimeout: 5000, requestTimeout: 1000 })).rejects.toThrow(/--request-timeout/);
  });
});
