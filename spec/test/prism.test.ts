import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type Started } from '../../test/support/process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let prism: Started;
let base: string;

describe('Stoplight Prism on the contract', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    prism = await startProcess(`${root}node_modules/.bin/prism`, ['mock', `${root}spec/openapi.json`, '-h', '127.0.0.1', '-p', String(port)], /Prism is listening/, {
      timeoutMs: 60_000,
    });
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
