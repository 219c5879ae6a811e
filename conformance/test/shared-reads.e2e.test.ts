import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type Credential, type RequestSpec } from '../wire/client.js';
import { Redactor } from '../wire/redact.js';
import { sharedReads } from '../wire/shared-reads.js';

/** A loopback server that counts the requests of each target and drops the first one asking for `/flaky`. */
let server: Server;
let baseUrl: string;
const seen = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (req.url === '/flaky' && seen.get(key) === 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function client(): HttpClient {
  return new HttpClient({
    baseUrl,
    timeoutMs: 5000,
    concurrency: 4,
    headers: {},
    redactor: new Redactor(),
    credentialHeaders: (c: Credential): Record<string, string> =>
      c === 'main' ? { authorization: 'Bearer main' } : c === 'other' ? { authorization: 'Bearer other' } : {},
    matchOperation: () => undefined,
  });
}

const list = (over: Partial<RequestSpec> = {}): RequestSpec => ({
  method: 'GET',
  path: '/v1/items/skus',
  query: { filterBy: 'name[Contains]valve', pageSize: 1000 },
  ...over,
});

describe('reads shared by the checks of a run', () => {
  it('send a request two checks make once, and record it under the check that sent it', async () => {
    const http = client();
    const read = sharedReads(http);
    const [a, b] = await Promise.all([read('filters.contains', list()), read('filters.and-or', list())]);
    const later = await read('filters.precedence', list());
    expect(a).toBe(b);
    expect(later).toBe(a);
    expect(http.exchanges.map((ex) => ex.check)).toEqual(['filters.contains']);
    expect(seen.get('GET /v1/items/skus?filterBy=name%5BContains%5Dvalve&pageSize=1000 Bearer main')).toBe(1);
    await http.close();
  });

  it('send again what differs in query, body or credential', async () => {
    const http = client();
    const read = sharedReads(http);
    await read('a', list({ path: '/v1/maintenance/assets' }));
    await read(
      'b',
      list({ path: '/v1/maintenance/assets', query: { pageSize: 1000, filterBy: 'name[Contains]valve' } }),
    );
    await read('c', list({ path: '/v1/maintenance/assets', auth: 'other' }));
    await read('d', { method: 'POST', path: '/v1/items/families/search', json: { pageSize: 1 } });
    await read('e', { method: 'POST', path: '/v1/items/families/search', json: { pageSize: 2 } });
    expect(http.exchanges.map((ex) => ex.check)).toEqual(['a', 'b', 'c', 'd', 'e']);
    await http.close();
  });

  it('send again a read that got no answer, for the next check that makes it', async () => {
    const http = client();
    const read = sharedReads(http);
    await expect(read('first', { method: 'GET', path: '/flaky' })).rejects.toThrow();
    const again = await read('second', { method: 'GET', path: '/flaky' });
    expect(again.status).toBe(200);
    expect(again.check).toBe('second');
    expect(seen.get('GET /flaky Bearer main')).toBe(2);
    await http.close();
  });
});
