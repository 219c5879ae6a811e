/** The webhook transport's connection pools: one kept per receiver, bounded in number (mock/webhooks/origin-pools.ts). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { OriginPools } from '../origin-pools.js';

/** A receiver that answers 204 and closes every connection (an HTTP/1.0 server does), counting connections. */
async function closingReceiver(): Promise<{ origin: string; connections: () => number; server: Server }> {
  let connections = 0;
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(204, { connection: 'close' }).end();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    server,
  };
}

/** One POST through `pools`: resolves with the status, or rejects with undici's error. */
function post(pools: OriginPools, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: () => undefined,
      onResponseStart: (_controller, statusCode) => {
        status = statusCode;
      },
      onResponseData: () => undefined,
      onResponseEnd: () => resolve(status),
      onResponseError: (_controller, error) => reject(error),
    };
    pools.dispatch({ origin, path: '/hook', method: 'POST', body: '{}' }, handler);
  });
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('OriginPools', () => {
  it('keeps a receiver’s pool while the receiver closes every connection: each attempt is answered on a new one', async () => {
    const receiver = await closingReceiver();
    servers.push(receiver.server);
    const pools = new OriginPools(null);
    for (let i = 0; i < 3; i++) expect(await post(pools, receiver.origin)).toBe(204);
    expect(receiver.connections()).toBe(3);
    expect(pools.size).toBe(1);
    await pools.close();
    expect(pools.size).toBe(0);
  });

  it('closes the least recently used pool beyond its bound; a later attempt to that receiver gets a pool again', async () => {
    const receivers = await Promise.all([closingReceiver(), closingReceiver(), closingReceiver()]);
    servers.push(...receivers.map((r) => r.server));
    const [a, b, c] = receivers.map((r) => r.origin) as [string, string, string];
    const pools = new OriginPools(null, 2);
    expect(await post(pools, a)).toBe(204);
    expect(await post(pools, b)).toBe(204);
    expect(await post(pools, c)).toBe(204);
    expect(pools.size).toBe(2);
    expect(await post(pools, a)).toBe(204);
    expect(pools.size).toBe(2);
    await pools.close();
  });
});
