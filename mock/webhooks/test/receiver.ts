import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One request a test receiver got: the raw body bytes exactly as received, the headers, the path. */
export interface Received {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
}

/** What the receiver does with a request: answer, never answer, or drop the connection. */
export type Action =
  | { status: number; body?: string | Buffer; headers?: Record<string, string> }
  | 'hang'
  | 'reset';

/** Decides the action per request; `index` counts the requests received so far from 0. */
export type Behaviour = (request: Received, index: number) => Action | Promise<Action>;

/** A receiver on loopback for webhook tests, programmable per request. */
export interface TestReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  behave(behaviour: Behaviour): void;
  /** Resolves once `count` requests were received (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Answers 200 `ok`. */
export const ok: Behaviour = () => ({ status: 200, body: 'ok' });

/** Starts a receiver on 127.0.0.1 (a free port) that records every request and answers per `behaviour`. */
export async function startReceiver(behaviour: Behaviour = ok): Promise<TestReceiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let current = behaviour;

  const answer = (res: ServerResponse, action: Action) => {
    if (action === 'hang') return;
    if (action === 'reset') {
      res.socket?.destroy();
      return;
    }
    res.on('error', () => undefined);
    res.writeHead(action.status, { 'content-type': 'text/plain', ...(action.headers ?? {}) });
    res.end(action.body ?? '');
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined);
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      const request: Received = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json };
      const index = received.length;
      received.push(request);
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      Promise.resolve(current(request, index)).then(
        (action) => answer(res, action),
        () => answer(res, { status: 500, body: 'behaviour failed' }),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    // A client that drops the connection (a huge body read only in part) is not an error of the test.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    behave: (next) => {
      current = next;
    },
    waitFor: (count, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received.slice(0, count));
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice(0, count));
          },
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
