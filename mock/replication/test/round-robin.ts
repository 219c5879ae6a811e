import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** Header the balancer adds to each answer: which backend (index) answered it. */
export const BACKEND_HEADER = 'x-test-backend';

/** A small load balancer for tests: each request goes to the next backend in turn. */
export interface RoundRobin {
  readonly url: string;
  /** Backends taken out of the rotation (a killed replica), by index. */
  readonly down: Set<number>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

/** Starts a round-robin balancer over `backends` (base URLs) on a free loopback port. */
export async function startRoundRobin(backends: readonly string[]): Promise<RoundRobin> {
  let next = 0;
  const down = new Set<number>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let index = next++ % backends.length;
    for (let i = 0; i < backends.length && down.has(index); i++) index = next++ % backends.length;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    try {
      const answer = await request(`${backends[index]}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      const out: Record<string, string | string[]> = { [BACKEND_HEADER]: String(index) };
      for (const [name, value] of Object.entries(answer.headers))
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      res.writeHead(answer.statusCode, out).end(body);
    } catch (error) {
      res.writeHead(502, { [BACKEND_HEADER]: String(index) }).end((error as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    down,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
