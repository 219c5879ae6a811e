/**
 * API coverage through the HTTP shell (docs/DESIGN.md, "Testing API"): `GET /__mock/coverage` and `tenant(org).coverage()`
 * count, per tenant, the operations called and the declared status/code pairs answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitEveryPair, type TenantCall } from '../../test/support/every-pair.js';
import { OPERATIONS } from '../../spec/operations/index.js';
import type { Coverage } from '../coverage/schema.js';
import { adminClaims } from '../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness } from './harness.js';

let h: InjectHarness;

beforeAll(async () => {
  h = await injectHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A fresh tenant: its org, an admin token and a way to read its coverage. */
async function tenant() {
  const org = freshOrg('coverage');
  const token = await h.token(adminClaims(org));
  const coverage = async (query = ''): Promise<Coverage> => {
    const reply = await h.call('GET', `/__mock/coverage${query}`, { token });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Coverage;
  };
  return { org, token, coverage };
}

const pair = (c: Coverage, operationId: string, status: number, code: string | null) =>
  c.pairs.find((p) => p.operationId === operationId && p.status === status && p.code === code);
const called = (c: Coverage, operationId: string) => c.operations.find((o) => o.operationId === operationId)?.called;

describe('GET /__mock/coverage', () => {
  it('answers the plain 401 without credentials', async () => {
    const reply = await h.call('GET', '/__mock/coverage', { token: null });
    expect(reply.status).toBe(401);
    expect(reply.body).not.toHaveProperty('code');
  });

  it('lists every operation and every declared pair, none exercised, for a tenant that made no request', async () => {
    const c = await (await tenant()).coverage();
    expect(c.operations.map((o) => o.operationId)).toEqual(OPERATIONS.map((o) => o.operationId));
    expect(c.summary).toEqual({
      operations: { hit: 0, total: OPERATIONS.length },
      pairs: { hit: 0, total: c.pairs.length },
    });
    expect(c.pairs.length).toBeGreaterThan(OPERATIONS.length * 3);
    expect(c.operations.find((o) => o.operationId === 'updateSkuStock')).toEqual({
      operationId: 'updateSkuStock',
      method: 'PUT',
      path: '/v1/items/skus/{skuReference}/stock',
      called: 0,
    });
    expect(pair(c, 'updateSkuStock', 204, null)).toEqual({
      operationId: 'updateSkuStock',
      status: 204,
      code: null,
      // "no content (no response body)" is documented; the status 204 is the contract's.
      provenance: 'inferred',
      hit: 0,
    });
    expect(pair(c, 'updateSkuStock', 404, 'COMMON.ENTITY.NOT_FOUND')?.provenance).toBe('inferred');
  });

  it('counts the calls of an operation and the pairs they were answered with, success and problems alike', async () => {
    const t = await tenant();
    await h.call('GET', '/v1/items/skus', { token: t.token, op: 'listSkus' });
    await h.call('GET', '/v1/items/skus?pageSize=1', { token: t.token, op: 'listSkus' });
    await h.call('GET', '/v1/items/skus?sortBy=nope', { token: t.token, op: 'listSkus' });
    await h.call('GET', '/v1/items/skus', { token: t.token, headers: { prefer: 'code=429' }, op: 'listSkus' });
    const c = await t.coverage();
    expect(called(c, 'listSkus')).toBe(4);
    expect(pair(c, 'listSkus', 200, null)?.hit).toBe(2);
    expect(pair(c, 'listSkus', 400, 'COMMON.QUERY.SORTING_PARSING_FAILED')?.hit).toBe(1);
    expect(pair(c, 'listSkus', 400, 'COMMON.QUERY.FILTER_PARSING_FAILED')?.hit).toBe(0);
    expect(pair(c, 'listSkus', 429, 'COMMON.RATE_LIMIT.EXCEEDED')?.hit).toBe(1);
    expect(c.summary).toEqual({
      operations: { hit: 1, total: OPERATIONS.length },
      pairs: { hit: 3, total: c.pairs.length },
    });
  });

  it('counts a call whose answer the contract does not declare, and no pair for it', async () => {
    const t = await tenant();
    const refused = await h.call('GET', '/v1/admin/tenants/self', { token: t.token, headers: { prefer: 'code=418' } });
    expect(refused.status).toBe(400);
    const c = await t.coverage();
    expect(called(c, 'getTenantSelf')).toBe(1);
    expect(c.summary.pairs.hit).toBe(0);
  });

  it("keeps each tenant's coverage apart", async () => {
    const a = await tenant();
    const b = await tenant();
    await h.call('GET', '/v1/admin/tenants/self', { token: a.token, op: 'getTenantSelf' });
    expect(called(await a.coverage(), 'getTenantSelf')).toBe(1);
    expect((await b.coverage()).summary.operations.hit).toBe(0);
  });

  it('counts the 401 of an expired token of the tenant, and of a revoked API key, but not of a forged token', async () => {
    const t = await tenant();
    await h.call('GET', '/v1/admin/tenants/self', { token: t.token, op: 'getTenantSelf' });
    const expired = await h.token(adminClaims(t.org), -3600);
    const genuine = await h.mock.control.tenant(t.org).token();
    const tampered = `${genuine.slice(0, -4)}AAAA`;
    // Each sent twice: the second answer comes from what the mock remembers of the token, and counts the same.
    for (let i = 0; i < 2; i++) {
      expect((await h.call('GET', '/v1/items/skus', { token: expired })).status).toBe(401);
      expect((await h.call('GET', '/v1/maintenance/assets', { token: tampered })).status).toBe(401);
    }
    const key = (
      await h.call('POST', '/v1/access/apiKeys', { token: t.token, body: { name: 'revoked' }, op: 'createApiKey' })
    ).body as { id: string; key: string };
    expect((await h.call('DELETE', `/__mock/api-keys/${key.id}`, { token: t.token })).status).toBe(204);
    expect((await h.call('GET', '/v1/notifications/events', { token: null, apiKey: key.key })).status).toBe(401);
    const c = await t.coverage();
    expect(pair(c, 'listSkus', 401, null)?.hit).toBe(2);
    expect(pair(c, 'listEvents', 401, null)?.hit).toBe(1);
    expect(called(c, 'listAssets')).toBe(0);
  });

  it('restricts the operations, the pairs and the totals to ?operations=, and names an unknown operationId in a 400', async () => {
    const t = await tenant();
    await h.call('GET', '/v1/items/skus', { token: t.token, op: 'listSkus' });
    const c = await t.coverage('?operations=listSkus,%20updateSkuStock');
    expect(c.operations.map((o) => o.operationId)).toEqual(['updateSkuStock', 'listSkus']);
    expect(new Set(c.pairs.map((p) => p.operationId))).toEqual(new Set(['updateSkuStock', 'listSkus']));
    expect(c.summary.operations).toEqual({ hit: 1, total: 2 });
    const bad = await h.call('GET', '/__mock/coverage?operations=listSkus,listSkuz', { token: t.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'COMMON.VALIDATION.ERROR', parameters: { field: 'operations' } });
    expect(bad.body.detail).toContain("'listSkuz'");
  });

  it('starts again from zero when the tenant is reset', async () => {
    const t = await tenant();
    await h.call('GET', '/v1/admin/tenants/self', { token: t.token, op: 'getTenantSelf' });
    expect((await h.call('POST', '/__mock/reset', { token: t.token, body: {} })).status).toBe(200);
    expect((await t.coverage()).summary).toMatchObject({ operations: { hit: 0 }, pairs: { hit: 0 } });
  });

  it('reaches every operation and every pair after a suite that meets every declared answer', async () => {
    const t = await tenant();
    const call: TenantCall = (method, path, options = {}) => h.call(method, path, { token: t.token, ...options });
    const fixtures = (await call('GET', '/__mock/fixtures')).body;
    const line = h.mock.control
      .tenant(t.org)
      .inspect()!
      .purchaseOrderLines()
      .find((l) => l.status === 'PartiallyReceived')!;
    await hitEveryPair(call, fixtures, {
      purchaseOrderId: line.purchaseOrderId,
      lineId: line.id,
      receivedQuantity: line.receivedQuantity,
    });
    const c = await t.coverage();
    expect(c.pairs.filter((p) => p.hit === 0).map((p) => `${p.operationId} ${p.status} ${p.code ?? ''}`)).toEqual([]);
    expect(c.summary.operations).toEqual({ hit: OPERATIONS.length, total: OPERATIONS.length });
  });
});

describe('tenant(org).coverage()', () => {
  it('tells what GET /__mock/coverage tells, restricted on demand, without seeding the tenant', async () => {
    const t = await tenant();
    const control = h.mock.control.tenant(t.org);
    expect(control.coverage().summary.operations.hit).toBe(0);
    expect(h.mock.control.orgs()).not.toContain(t.org);
    await h.call('PUT', '/v1/items/skus/none/stock', {
      token: t.token,
      body: { locationReference: 'x', stock: 1 },
      op: 'updateSkuStock',
    });
    expect(control.coverage()).toEqual(await t.coverage());
    expect(control.coverage({ operations: ['updateSkuStock'] })).toEqual(
      await t.coverage('?operations=updateSkuStock'),
    );
    expect(pair(control.coverage(), 'updateSkuStock', 404, 'COMMON.ENTITY.NOT_FOUND')?.hit).toBe(1);
    expect(() => control.coverage({ operations: ['nope'] })).toThrow(/unknown operationId 'nope'/);
  });
});

describe('the request journal', () => {
  it('carries the operationId, the parsed query, the status and the problem code of each request', async () => {
    const t = await tenant();
    await h.call('GET', '/v1/items/skus?pageSize=2&filterBy=name%5BContains%5Da%20%26%26%20name%5BContains%5Db', {
      token: t.token,
      op: 'listSkus',
    });
    await h.call('GET', '/v1/items/skus?sortBy=nope', { token: t.token, op: 'listSkus' });
    const requests = h.mock.control.tenant(t.org).requests();
    expect(requests[0]).toMatchObject({
      operationId: 'listSkus',
      method: 'GET',
      path: '/v1/items/skus',
      query: { pageSize: '2', filterBy: 'name[Contains]a && name[Contains]b' },
      status: 200,
    });
    expect(requests[0]?.queryString).toContain('%26%26');
    expect(requests[0]).not.toHaveProperty('code');
    expect(requests[1]).toMatchObject({
      query: { sortBy: 'nope' },
      status: 400,
      code: 'COMMON.QUERY.SORTING_PARSING_FAILED',
    });
    expect((await h.call('GET', '/__mock/requests', { token: t.token })).body.requests).toEqual(requests);
  });
});

describe('a mock started with --no-admin', () => {
  it('has no GET /__mock/coverage: a 404 problem without code', async () => {
    const off = await injectHarness({ admin: false });
    try {
      const reply = await off.call('GET', '/__mock/coverage');
      expect(reply.status).toBe(404);
      expect(reply.body).not.toHaveProperty('code');
    } finally {
      await off.close();
    }
  });
});
