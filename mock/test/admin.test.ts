import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from './harness.js';

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('GET /__mock/health', () => {
    it('answers 200 {status: ok} without credentials', async () => {
      const reply = await h.call('GET', '/__mock/health', { token: null });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ status: 'ok' });
    });
  });

  describe('GET /__mock/stats', () => {
    it('reports tenants in memory, stored notifications and memory figures', async () => {
      await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' });
      const reply = await h.call('GET', '/__mock/stats?gc=1', { token: null });
      expect(reply.status).toBe(200);
      expect(reply.body.tenants).toBeGreaterThanOrEqual(1);
      expect(reply.body.notifications).toBeGreaterThanOrEqual(0);
      expect(reply.body.memory.heapUsed).toBeGreaterThan(0);
      expect(reply.body.memory.rss).toBeGreaterThan(reply.body.memory.heapUsed);
      expect(typeof reply.body.gcForced).toBe('boolean');
    });

    it('reports the cache of verified tokens: the token just used is in it, within both bounds', async () => {
      await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' });
      const { verifiedTokens } = (await h.call('GET', '/__mock/stats', { token: null })).body;
      expect(verifiedTokens.entries).toBeGreaterThanOrEqual(1);
      expect(verifiedTokens).toMatchObject({ maxEntries: 10_000, maxChars: 8_000_000 });
      expect(verifiedTokens.chars).toBeGreaterThan(200);
      expect(verifiedTokens.chars).toBeLessThanOrEqual(verifiedTokens.maxChars);
    });
  });

  describe('GET /__mock/stats loop', () => {
    it("counts the event loop's busy time and the collector's pauses, growing between two reads", async () => {
      const before = (await h.call('GET', '/__mock/stats', { token: null })).body.loop;
      // Young-generation garbage for several scavenges (~100 MB in small batches, each kept a while and dropped), while
      // the loop is busy; the observer is told a turn later.
      let kept = 0;
      for (let batch = 0; batch < 100; batch++) {
        const objects = Array.from({ length: 20_000 }, (_, i) => ({ i, text: `x${i}` }));
        kept += objects.length;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      const after = (await h.call('GET', '/__mock/stats', { token: null })).body.loop;
      expect(kept).toBe(2_000_000);
      expect(after.busyMs).toBeGreaterThan(before.busyMs);
      expect(after.idleMs).toBeGreaterThanOrEqual(before.idleMs);
      expect(after.gc.minor.count).toBeGreaterThan(before.gc.minor.count);
      expect(after.gc.minor.pauseMs).toBeGreaterThan(before.gc.minor.pauseMs);
      expect(after.gc.minor.longestMs).toBeGreaterThan(0);
      expect(after.gc.minor.longestMs).toBeLessThanOrEqual(after.gc.minor.pauseMs);
      for (const kind of ['major', 'other'])
        expect(Object.keys(after.gc[kind]).sort()).toEqual(['count', 'longestMs', 'pauseMs']);
    });
  });

  describe('POST /__mock/tokens', () => {
    it('mints a token (201) that works for the org, with the permissions asked', async () => {
      const org = freshOrg('minted');
      const reply = await h.call('POST', '/__mock/tokens', {
        token: null,
        body: { org, permissions: ['Warehouse.Skus.Read'], expiresIn: 600 },
      });
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
      const self = await h.call('GET', '/v1/admin/tenants/self', { token: reply.body.token, op: 'getTenantSelf' });
      expect(self.body.orgCode).toBe(org);
      expect(
        (await h.call('GET', '/v1/items/skus?pageSize=1', { token: reply.body.token, op: 'listSkus' })).status,
      ).toBe(200);
      expect(
        (await h.call('GET', '/v1/maintenance/assets', { token: reply.body.token, op: 'listAssets' })).status,
      ).toBe(403);
    });

    it('mints role tokens', async () => {
      const org = freshOrg('minted');
      const reply = await h.call('POST', '/__mock/tokens', { token: null, body: { org, roles: ['App.Admin'] } });
      expect(reply.status).toBe(201);
      expect(
        (
          await h.call('GET', '/v1/notifications/webhook/subscriptions', {
            token: reply.body.token,
            op: 'listWebhookSubscriptions',
          })
        ).status,
      ).toBe(200);
    });

    it('mints expired tokens on a negative expiresIn', async () => {
      const reply = await h.call('POST', '/__mock/tokens', {
        token: null,
        body: { org: freshOrg('minted'), expiresIn: -60 },
      });
      expect(reply.status).toBe(201);
      expectProblem(
        await h.call('GET', '/v1/admin/tenants/self', { token: reply.body.token, op: 'getTenantSelf' }),
        401,
        null,
      );
    });

    it.each([
      { what: 'no org', body: {}, field: 'org' },
      { what: 'an org with spaces', body: { org: 'bad org' }, field: 'org' },
      { what: 'an org too long', body: { org: 'o'.repeat(65) }, field: 'org' },
      { what: 'an org that is a number', body: { org: 5 }, field: 'org' },
      { what: 'permissions that are not strings', body: { org: 'ok', permissions: [1] }, field: 'permissions' },
      { what: 'roles that are not an array', body: { org: 'ok', roles: 'App.Admin' }, field: 'roles' },
      { what: 'a fractional expiresIn', body: { org: 'ok', expiresIn: 1.5 }, field: 'expiresIn' },
      { what: 'an expiresIn above a year', body: { org: 'ok', expiresIn: 40_000_000 }, field: 'expiresIn' },
    ])('answers $what with 400 naming the field', async ({ body, field }) => {
      const reply = await h.call('POST', '/__mock/tokens', { token: null, body });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/tokens');
      expect(reply.body.parameters).toEqual({ field });
    });

    it('answers invalid JSON with 400', async () => {
      const reply = await h.call('POST', '/__mock/tokens', { token: null, raw: '{"org":' });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    });
  });
});

describe('the admin API turned off (admin: false)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ admin: false });
  });

  afterAll(async () => {
    await h?.close();
  });

  it.each([
    ['GET', '/__mock/health'],
    ['POST', '/__mock/tokens'],
    ['POST', '/__mock/reset'],
    ['GET', '/__mock/clock'],
    ['POST', '/__mock/clock'],
    ['GET', '/__mock/fixtures'],
    ['GET', '/__mock/requests'],
    ['DELETE', '/__mock/requests'],
    ['POST', '/__mock/events'],
    ['GET', '/__mock/webhook-secret'],
  ])('answers %s %s with a 404 problem without code', async (method, path) => {
    const reply = await h.call(method, path, { body: method === 'POST' ? { org: 'x' } : undefined });
    expectProblem(reply, 404, null, `${method} ${path}`);
  });

  it('still answers the API', async () => {
    expect((await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' })).status).toBe(200);
  });
});
