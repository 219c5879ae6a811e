import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { startFieldAddingProxy, type FieldAddingProxy } from '../../test/support/field-adding-proxy.js';
import { freePort, startProcess, type Started } from '../../common/process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let prism: Started;
let base: string;

describe('Stoplight Prism on the contract', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    prism = await startProcess(
      `${root}node_modules/.bin/prism`,
      ['mock', `${root}spec/openapi.json`, '-h', '127.0.0.1', '-p', String(port)],
      /Prism is listening/,
      {
        timeoutMs: 60_000,
      },
    );
  }, 70_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it('starts on spec/openapi.json and answers a list request with a page envelope', async () => {
    const res = await request(`${base}/v1/items/skus`, { headers: { authorization: 'Bearer token' } });
    expect(res.statusCode).toBe(200);
    const body = (await res.body.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['pageNumber', 'pageSize', 'results', 'totalCount', 'totalPages']);
  });

  it('answers 401 when the security requirement is not met', async () => {
    const res = await request(`${base}/v1/items/skus`);
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });
});

describe('Stoplight Prism proxy --errors in front of a server that sends fields the contract does not name', () => {
  let mock: RunningMock;
  let adding: FieldAddingProxy;
  let proxy: Started;
  let base: string;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: null });
    adding = await startFieldAddingProxy(mock.url, 'warehouseZone', 'B2');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proxy = await startProcess(
      `${root}node_modules/.bin/prism`,
      ['proxy', `${root}spec/openapi.json`, adding.url, '--errors', '-h', '127.0.0.1', '-p', String(port)],
      /Prism is listening/,
      {
        timeoutMs: 60_000,
      },
    );
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
