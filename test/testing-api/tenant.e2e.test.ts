import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type TestMock, type TestTenant } from 'opsapi/testing';

let mock: TestMock;

beforeAll(async () => {
  mock = await startMock({ rateLimit: 'off' });
});
afterAll(() => mock?.close());

/** A client call with a bearer token (or the headers given); answers the status and the parsed body. */
async function call(t: TestTenant, method: string, path: string, headers?: Record<string, string>) {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: headers ?? { authorization: `Bearer ${await t.token()}` },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('mock.tenant()', () => {
  it('gives a fresh unique org when no name is given, and the named org otherwise', () => {
    const [a, b] = [mock.tenant(), mock.tenant()];
    expect(a.org).not.toBe(b.org);
    expect(a.org).toMatch(/^test-/);
    expect(mock.tenant('acme').org).toBe('acme');
  });

  it('refuses an org the mock would refuse, with the rule', () => {
    expect(() => mock.tenant('no spaces')).toThrow(RangeError);
    expect(() => mock.tenant('no spaces')).toThrow(/org 'no spaces' is refused: an org is 1 to 64 letters/);
  });
});

describe('a tenant handle', () => {
  it('mints an admin token by default, and tokens with only the permissions or the expiry asked for', async () => {
    const t = mock.tenant();
    expect((await call(t, 'GET', '/v1/items/skus?pageSize=1')).status).toBe(200);
    const limited = await t.token({ permissions: ['Items.Families.Read'], roles: [] });
    const refused = await call(t, 'GET', '/v1/items/skus', { authorization: `Bearer ${limited}` });
    expect(refused).toMatchObject({ status: 403, body: { code: 'COMMON.AUTH.MISSING_PERMISSIONS' } });
    const expired = await t.token({ expiresIn: -60 });
    expect((await call(t, 'GET', '/v1/items/skus', { authorization: `Bearer ${expired}` })).status).toBe(401);
  });

  it('refuses a token request with an unknown field or a value of the wrong kind', async () => {
    const t = mock.tenant();
    await expect(t.token({ permission: [] } as never)).rejects.toThrow(
      /unknown field permission; did you mean permissions\?/,
    );
    await expect(t.token({ roles: 'App.Admin' } as never)).rejects.toThrow(TypeError);
  });

  it('creates an API key that the mock accepts as X-Api-Key, without it showing in the journal or the coverage', async () => {
    const t = mock.tenant();
    const key = await t.apiKey('ci');
    expect(key).toMatch(/^opsk_/);
    expect(
      t.control
        .inspect()
        ?.apiKeys()
        .map((k) => k.name),
    ).toEqual(['ci']);
    expect(t.requests()).toEqual([]);
    expect(t.coverage().summary.operations.hit).toBe(0);
    expect((await call(t, 'GET', '/v1/items/skus?pageSize=1', { 'x-api-key': key })).status).toBe(200);
  });

  it('lists its requests newest last, filtered by operationId, method, path, status and code', async () => {
    const t = mock.tenant();
    const family = t.fixtures().deletableFamilyId;
    await call(t, 'GET', '/v1/items/skus?pageSize=2&sortBy=-reference');
    await call(t, 'GET', '/v1/items/skus?pageSize=0');
    await call(t, 'DELETE', `/v1/items/families/${family}`);

    const all = t.requests();
    expect(all.map((r) => r.operationId)).toEqual(['listSkus', 'listSkus', 'deleteFamily']);
    expect(all[0]).toMatchObject({
      method: 'GET',
      path: '/v1/items/skus',
      query: { pageSize: '2', sortBy: '-reference' },
      status: 200,
      at: expect.any(String),
    });
    expect(all[0]).not.toHaveProperty('code');
    expect(t.requests({ operationId: 'listSkus', status: 400 })).toMatchObject([
      { code: 'COMMON.VALIDATION.ERROR', query: { pageSize: '0' } },
    ]);
    expect(t.requests({ code: 'COMMON.VALIDATION.ERROR' })).toHaveLength(1);
    expect(t.requests({ method: 'delete' }).map((r) => r.path)).toEqual([`/v1/items/families/${family}`]);
    expect(t.requests({ path: /^\/v1\/items\/families\// })).toHaveLength(1);
    expect(t.requests({ path: '/v1/items/skus' })).toHaveLength(2);
    expect(() => t.requests({ operation: 'listSkus' } as never)).toThrow(
      /unknown filter operation; known: operationId/,
    );
  });

  it("counts the client's calls in its coverage", async () => {
    const t = mock.tenant();
    await call(t, 'GET', '/v1/items/skus?pageSize=1');
    const listSkus = t.coverage().operations.find((op) => op.operationId === 'listSkus');
    expect(listSkus?.called).toBe(1);
    expect(t.coverage({ operations: ['listSkus'] }).summary.operations).toEqual({ hit: 1, total: 1 });
  });

  it('resets to a fresh world: a deleted family is back, and the journal and coverage start again', async () => {
    const t = mock.tenant();
    const family = t.fixtures().deletableFamilyId;
    expect((await call(t, 'DELETE', `/v1/items/families/${family}`)).status).toBeLessThan(300);
    expect((await call(t, 'DELETE', `/v1/items/families/${family}`)).body.code).toBe('ITEMS.FAMILY.ALREADY_DELETED');
    await t.reset();
    expect(t.requests()).toEqual([]);
    expect(t.coverage().summary.operations.hit).toBe(0);
    expect((await call(t, 'DELETE', `/v1/items/families/${family}`)).status).toBeLessThan(300);
  });

  it("moves its own virtual clock forward and no other tenant's", async () => {
    const [t, other] = [mock.tenant(), mock.tenant()];
    const before = t.clock.now();
    await t.clock.advance(3600);
    expect(t.clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(other.clock.now()).toBeLessThan(t.clock.now() - 3_000_000);
    await expect(t.clock.advance(-1)).rejects.toThrow(RangeError);
  });

  it('shares nothing with the same org of another mock', async () => {
    const second = await startMock({ rateLimit: 'off' });
    try {
      const here = mock.tenant('shared');
      await call(here, 'GET', '/v1/items/skus?pageSize=1');
      await here.apiKey();
      const there = second.tenant('shared');
      expect(there.requests()).toEqual([]);
      expect(there.control.inspect()?.apiKeys()).toEqual([]);
    } finally {
      await second.close();
    }
    expect(() => second.tenant()).toThrow(/mock.tenant: the mock is closed/);
  });
});
