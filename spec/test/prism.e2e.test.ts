import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { startFieldAddingProxy, type FieldAddingProxy } from '../../test/support/field-adding-proxy.js';
import { startOnFreePort } from '../../common/free-port.js';
import { startProcess, type Started } from '../../test/support/process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Prism's mock of the contract (a list page envelope, 401 without credentials) is checked in
// conformance/test/prism.e2e.test.ts, on the Prism the runner is run against.

describe('Stoplight Prism proxy --errors in front of a server that sends fields the contract does not name', () => {
  let mock: RunningMock;
  let adding: FieldAddingProxy;
  let proxy: Started;
  let base: string;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: null });
    adding = await startFieldAddingProxy(mock.url, 'warehouseZone', 'B2');
    [proxy, base] = await startOnFreePort(async (port) => [
      await startProcess(
        `${root}node_modules/.bin/prism`,
        ['proxy', `${root}spec/openapi.json`, adding.url, '--errors', '-h', '127.0.0.1', '-p', String(port)],
        /Prism is listening/,
        { timeoutMs: 60_000 },
      ),
      `http://127.0.0.1:${port}`,
    ]);
  }, 70_000);

  afterAll(async () => {
    await proxy?.stop();
    await adding?.close();
    await mock?.close();
  });

  it('passes a SKU list with an extra field on every object through (the open contract accepts it), not a 500', async () => {
    const token = await mock.control.tenant('prism-proxy-open').token();
    const res = await request(`${base}/v1/items/skus`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.body.json()) as { results: Record<string, unknown>[]; warehouseZone?: string };
    expect(res.statusCode, JSON.stringify(body).slice(0, 500)).toBe(200);
    expect(body.warehouseZone).toBe('B2');
    expect(body.results[0]).toMatchObject({ warehouseZone: 'B2', reference: expect.any(String) });
  });
});
