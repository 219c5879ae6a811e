import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { RateLimiter, parseRate } from '../rate-limit.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from './harness.js';

describe('the per-tenant rate limit over HTTP (5 per minute)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ rateLimit: { limit: 5, windowMs: 60_000 } });
  });

  afterAll(async () => {
    await h?.close();
  });

  async function tenant(): Promise<string> {
    return h.token(adminClaims(freshOrg('rl')));
  }

  it('answers the 6th request of a tenant with 429 COMMON.RATE_LIMIT.EXCEEDED, parameters {} and Retry-After', async () => {
    const token = await tenant();
    for (let i = 0; i < 5; i++) {
      const ok = await h.call('GET', '/v1/items/skus?pageSize=1', { token, op: 'listSkus' });
      expect(ok.status, `request ${i + 1}`).toBe(200);
    }
    const limited = await h.call('GET', '/v1/items/skus?pageSize=1', { token, op: 'listSkus' });
    expectProblem(limited, 429, 'COMMON.RATE_LIMIT.EXCEEDED', 'GET /v1/items/skus');
    expect(limited.body.parameters).toEqual({});
    const retryAfter = limited.headers['retry-after'] ?? '';
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  });

  it('limits every operation of the tenant, not one route', async () => {
    const token = await tenant();
    const calls: [string, string, string][] = [
      ['GET', '/v1/items/skus?pageSize=1', 'listSkus'],
      ['GET', '/v1/admin/tenants/self', 'getTenantSelf'],
      ['GET', '/v1/notifications/events/versions', 'listEventVersions'],
      ['GET', '/v1/errors/COMMON.ENTITY.NOT_FOUND', 'getError'],
      ['GET', '/v1/maintenance/assets?pageSize=1', 'listAssets'],
    ];
    for (const [method, path, op] of calls) expect((await h.call(method, path, { token, op })).status).toBe(200);
    const limited = await h.call('POST', '/v1/items/families/search', { token, body: {}, op: 'searchFamilies' });
    expectProblem(limited, 429, 'COMMON.RATE_LIMIT.EXCEEDED', 'POST /v1/items/families/search');
  });

  it('leaves another tenant unaffected', async () => {
    const first = await tenant();
    for (let i = 0; i < 6; i++) await h.call('GET', '/v1/admin/tenants/self', { token: first, op: 'getTenantSelf' });
    expect((await h.call('GET', '/v1/admin/tenants/self', { token: first, op: 'getTenantSelf' })).status).toBe(429);
    const second = await tenant();
    for (let i = 0; i < 5; i++)
      expect((await h.call('GET', '/v1/admin/tenants/self', { token: second, op: 'getTenantSelf' })).status).toBe(200);
  });

  it('counts the tenant, whatever credential it uses', async () => {
    const org = freshOrg('rl-key');
    const token = await h.token(adminClaims(org));
    const key = await h.call('POST', '/v1/access/apiKeys', { token, body: { name: 'k' }, op: 'createApiKey' });
    expect(key.status).toBe(201);
    for (let i = 0; i < 4; i++)
      expect(
        (await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: key.body.key, op: 'getTenantSelf' }))
          .status,
      ).toBe(200);
    expect((await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' })).status).toBe(429);
  });

  it('answers anonymous requests with the 401, before the limit', async () => {
    const token = await tenant();
    for (let i = 0; i < 6; i++) await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' });
    const anonymous = await h.call('GET', '/v1/admin/tenants/self', { token: null, op: 'getTenantSelf' });
    expectProblem(anonymous, 401, null);
  });

  it('does not limit the admin API, and a tenant reset refills the bucket', async () => {
    const token = await tenant();
    for (let i = 0; i < 6; i++) await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' });
    for (let i = 0; i < 8; i++) expect((await h.call('GET', '/__mock/clock', { token })).status).toBe(200);
    expect((await h.call('POST', '/__mock/reset', { token })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' })).status).toBe(200);
  });
  it('refills every bucket on a reset of all tenants', async () => {
    const first = await tenant();
    const second = await tenant();
    for (const token of [first, second]) {
      for (let i = 0; i < 6; i++) await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' });
      expect((await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' })).status).toBe(429);
    }
    expect((await h.call('POST', '/__mock/reset', { token: null, body: { all: true } })).status).toBe(200);
    for (const token of [first, second])
      expect((await h.call('GET', '/v1/admin/tenants/self', { token, op: 'getTenantSelf' })).status).toBe(200);
  });
});

describe('no rate limit (rateLimit: null)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ rateLimit: null });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('never answers 429 over 50 requests of one tenant', async () => {
    expect(h.mock.control.options.rateLimit).toBeNull();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => h.call('GET', '/v1/admin/tenants/self', { op: 'getTenantSelf' })),
      );
      statuses.push(...replies.map((r) => r.status));
    }
    expect(statuses).toHaveLength(50);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});

describe('RateLimiter (pure, injected time)', () => {
  it('lets a burst up to the limit pass, then refuses with the wait for one token', () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 1000 });
    expect(limiter.take('a', 0)).toEqual({ ok: true, remaining: 2 });
    expect(limiter.take('a', 0)).toEqual({ ok: true, remaining: 1 });
    expect(limiter.take('a', 0)).toEqual({ ok: true, remaining: 0 });
    expect(limiter.take('a', 0)).toEqual({ ok: false, retryAfterMs: 334 });
  });

  it('refills continuously: one token after a third of the window', () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 1000 });
    for (let i = 0; i < 3; i++) limiter.take('a', 0);
    expect(limiter.take('a', 200).ok).toBe(false);
    expect(limiter.take('a', 334).ok).toBe(true);
    expect(limiter.take('a', 334).ok).toBe(false);
  });

  it('refills fully after the window, never above the limit', () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 1000 });
    for (let i = 0; i < 3; i++) limiter.take('a', 0);
    expect(limiter.take('a', 1000)).toEqual({ ok: true, remaining: 2 });
    const later = 1_000_000;
    const results = Array.from({ length: 4 }, () => limiter.take('a', later).ok);
    expect(results).toEqual([true, true, true, false]);
  });

  it('keeps one bucket per key', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 });
    expect(limiter.take('a', 0).ok).toBe(true);
    expect(limiter.take('a', 0).ok).toBe(false);
    expect(limiter.take('b', 0).ok).toBe(true);
  });

  it('forgets a key on demand (tenant reset)', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', 0);
    expect(limiter.take('a', 0).ok).toBe(false);
    limiter.forget('a');
    expect(limiter.take('a', 0).ok).toBe(true);
  });

  it('forgets every key at once', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', 0);
    limiter.take('b', 0);
    limiter.clear();
    expect(limiter.take('a', 0).ok).toBe(true);
    expect(limiter.take('b', 0).ok).toBe(true);
  });

  it('ignores time that runs backwards', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
    limiter.take('a', 5000);
    expect(limiter.take('a', 0).ok).toBe(false);
    expect(limiter.take('a', 6000).ok).toBe(true);
  });

  it('gives a retry delay of at most one window for one token', () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000 });
    for (let i = 0; i < 5; i++) limiter.take('a', 0);
    const refused = limiter.take('a', 0);
    expect(refused).toEqual({ ok: false, retryAfterMs: 12_000 });
  });
});

describe('parseRate', () => {
  it.each([
    ['300/1s', { limit: 300, windowMs: 1000 }],
    ['10/500ms', { limit: 10, windowMs: 500 }],
    ['1000/1m', { limit: 1000, windowMs: 60_000 }],
    ['5/h', { limit: 5, windowMs: 3_600_000 }],
    ['100 / 2s', { limit: 100, windowMs: 2000 }],
    [' 7/S ', { limit: 7, windowMs: 1000 }],
    // The window is a duration in the kit's one grammar (common/duration.ts): days and decimals too.
    ['10/1d', { limit: 10, windowMs: 86_400_000 }],
    ['10/1.5s', { limit: 10, windowMs: 1500 }],
  ])('reads %j', (text, rate) => {
    expect(parseRate(text)).toEqual({ ok: true, rate });
  });

  it.each(['off', 'OFF', 'none', '0'])('reads %j as no limit', (text) => {
    expect(parseRate(text)).toEqual({ ok: true, rate: null });
  });

  it.each(['abc', '', '10', '10/1x', '10/-1s', '-1/1s', '0/1s', '10/0s', '1.5/1s', '10/s/s'])(
    'refuses %j with a message',
    (text) => {
      const result = parseRate(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/rate limit/);
    },
  );
});
