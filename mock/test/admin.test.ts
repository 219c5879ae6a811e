import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from './harness.js';

const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  async function tenant(): Promise<{ org: string; token: string }> {
    const org = freshOrg('adm');
    return { org, token: await h.token(adminClaims(org)) };
  }

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

  describe('POST /__mock/reset', () => {
    it('resets the tenant of the caller only', async () => {
      const a = await tenant();
      const b = await tenant();
      for (const t of [a, b]) {
        const created = await h.call('POST', '/v1/access/apiKeys', {
          token: t.token,
          body: { name: 'k' },
          op: 'createApiKey',
        });
        expect(created.status).toBe(201);
        await h.call('POST', '/v1/notifications/webhook/subscriptions', {
          token: t.token,
          body: { endpoint: 'https://x.example/h', eventName: 'Items.Sku.Created', eventVersion: 1 },
          op: 'createWebhookSubscription',
        });
      }
      const reset = await h.call('POST', '/__mock/reset', { token: a.token });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ reset: a.org });
      const subsA = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
        token: a.token,
        op: 'listWebhookSubscriptions',
      });
      const subsB = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
        token: b.token,
        op: 'listWebhookSubscriptions',
      });
      expect(subsA.body.totalCount).toBe(0);
      expect(subsB.body.totalCount).toBe(1);
    });

    it('forgets the API keys of the reset tenant', async () => {
      const a = await tenant();
      const created = await h.call('POST', '/v1/access/apiKeys', {
        token: a.token,
        body: { name: 'k' },
        op: 'createApiKey',
      });
      expect(
        (await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: created.body.key, op: 'getTenantSelf' }))
          .status,
      ).toBe(200);
      await h.call('POST', '/__mock/reset', { token: a.token });
      expectProblem(
        await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: created.body.key, op: 'getTenantSelf' }),
        401,
        null,
      );
    });

    it('resets every tenant with {all: true}', async () => {
      const a = await tenant();
      const b = await tenant();
      for (const t of [a, b]) {
        await h.call('POST', '/v1/notifications/webhook/subscriptions', {
          token: t.token,
          body: { endpoint: 'https://x.example/h', eventName: 'Items.Sku.Created', eventVersion: 1 },
          op: 'createWebhookSubscription',
        });
      }
      const reset = await h.call('POST', '/__mock/reset', { token: null, body: { all: true } });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ reset: 'all' });
      for (const t of [a, b]) {
        const subs = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
          token: t.token,
          op: 'listWebhookSubscriptions',
        });
        expect(subs.body.totalCount).toBe(0);
      }
    });

    it('answers an anonymous tenant reset with the plain 401', async () => {
      expectProblem(await h.call('POST', '/__mock/reset', { token: null }), 401, null, 'POST /__mock/reset');
    });
  });

  describe('GET and POST /__mock/clock', () => {
    it('reads the tenant clock and advances it', async () => {
      const t = await tenant();
      const before = await h.call('GET', '/__mock/clock', { token: t.token });
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ now: expect.any(String), offsetSeconds: 0 });
      expect(Math.abs(Date.parse(before.body.now) - Date.now())).toBeLessThan(60_000);
      const advanced = await h.call('POST', '/__mock/clock', { token: t.token, body: { advanceSeconds: 3600 } });
      expect(advanced.status).toBe(200);
      expect(advanced.body.offsetSeconds).toBe(3600);
      expect(Date.parse(advanced.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3600_000);
      const again = await h.call('POST', '/__mock/clock', { token: t.token, body: { advanceSeconds: 0.5 } });
      expect(again.body.offsetSeconds).toBe(3600.5);
      expect((await h.call('GET', '/__mock/clock', { token: t.token })).body.offsetSeconds).toBe(3600.5);
    });

    it('moves only the caller tenant clock, and the time it stamps', async () => {
      const a = await tenant();
      const b = await tenant();
      await h.call('POST', '/__mock/clock', { token: a.token, body: { advanceSeconds: 86_400 * 30 } });
      expect((await h.call('GET', '/__mock/clock', { token: b.token })).body.offsetSeconds).toBe(0);
      const created = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token: a.token,
        body: { endpoint: 'https://x.example/h', eventName: 'Items.Sku.Created', eventVersion: 1 },
        op: 'createWebhookSubscription',
      });
      expect(Date.parse(created.body.createdAt) - Date.now()).toBeGreaterThan(86_400_000 * 29);
    });

    it.each([
      { what: 'a negative amount', body: { advanceSeconds: -1 } },
      { what: 'a huge amount', body: { advanceSeconds: MAX_ADVANCE_SECONDS + 1 } },
      { what: 'NaN as text', body: { advanceSeconds: 'NaN' } },
      { what: 'a number as text', body: { advanceSeconds: '60' } },
      { what: 'no amount', body: {} },
    ])('answers $what with 400 naming advanceSeconds', async ({ body }) => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', { token: t.token, body });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/clock');
      expect(reply.body.parameters).toEqual({ field: 'advanceSeconds' });
      expect((await h.call('GET', '/__mock/clock', { token: t.token })).body.offsetSeconds).toBe(0);
    });

    it('answers a bare NaN (invalid JSON) with 400', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', { token: t.token, raw: '{"advanceSeconds": NaN}' });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    });

    it('accepts the largest amount', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', {
        token: t.token,
        body: { advanceSeconds: MAX_ADVANCE_SECONDS },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.offsetSeconds).toBe(MAX_ADVANCE_SECONDS);
    });

    it('answers without credentials with the plain 401', async () => {
      expectProblem(await h.call('GET', '/__mock/clock', { token: null }), 401, null, 'GET /__mock/clock');
      expectProblem(
        await h.call('POST', '/__mock/clock', { token: null, body: { advanceSeconds: 1 } }),
        401,
        null,
        'POST /__mock/clock',
      );
    });
  });

  describe('GET /__mock/fixtures', () => {
    it('describes sample records of the tenant that the API knows', async () => {
      const t = await tenant();
      const reply = await h.call('GET', '/__mock/fixtures', { token: t.token });
      expect(reply.status).toBe(200);
      const m = reply.body as FixtureManifest;
      const line = { purchaseOrderId: expect.any(String), lineId: expect.any(String) };
      expect(m).toEqual({
        orgCode: t.org,
        sku: {
          reference: expect.any(String),
          inspectionIds: expect.arrayContaining([expect.any(String)]),
          baseUnitOfMeasureId: expect.any(String),
          alternativeUnitOfMeasureId: expect.any(String),
          locationReference: expect.any(String),
          lotId: expect.any(String),
        },
        unknownUnitOfMeasureId: expect.any(String),
        deletableFamilyId: expect.any(String),
        purchaseOrderLine: line,
        cancelledPurchaseOrderLine: line,
        receivedPurchaseOrderLine: line,
      });
      expect(m.sku.alternativeUnitOfMeasureId).not.toBe(m.sku.baseUnitOfMeasureId);
      expect(m.unknownUnitOfMeasureId).not.toBe(m.sku.baseUnitOfMeasureId);
      const sku = await h.call(
        'GET',
        `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`,
        { token: t.token, op: 'listSkus' },
      );
      expect(sku.body.results[0]).toMatchObject({
        reference: m.sku.reference,
        status: 'Active',
        baseUnitOfMeasureId: m.sku.baseUnitOfMeasureId,
      });
      const family = await h.call('POST', '/v1/items/families/search', {
        token: t.token,
        body: { filterBy: `id[Equals]${m.deletableFamilyId}` },
        op: 'searchFamilies',
      });
      expect(family.body.results[0]).toMatchObject({ id: m.deletableFamilyId, skuCount: 0 });
    });

    it('answers without credentials with the plain 401', async () => {
      expectProblem(await h.call('GET', '/__mock/fixtures', { token: null }), 401, null);
    });
  });

  describe('GET /__mock/requests', () => {
    it("lists the tenant's calls, newest last, with credentials redacted", async () => {
      const t = await tenant();
      const other = await tenant();
      await h.call('GET', '/v1/items/skus?pageSize=2', { token: t.token, op: 'listSkus' });
      await h.call('POST', '/v1/access/apiKeys', { token: t.token, body: { name: 'journal' }, op: 'createApiKey' });
      await h.call('GET', '/v1/admin/tenants/self', { token: other.token, op: 'getTenantSelf' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      expect(reply.status).toBe(200);
      const requests = reply.body.requests as Record<string, unknown>[];
      expect(requests.map((r) => [r.method, r.path, r.status, r.operationId])).toEqual([
        ['GET', '/v1/items/skus', 200, 'listSkus'],
        ['POST', '/v1/access/apiKeys', 201, 'createApiKey'],
      ]);
      expect(requests[0]).toMatchObject({ query: { pageSize: '2' }, queryString: 'pageSize=2' });
      expect(requests[1]).toMatchObject({ body: { name: 'journal' } });
      for (const r of requests) {
        const headers = r.headers as Record<string, string>;
        expect(headers.authorization).toBe('[redacted]');
        expect(JSON.stringify(r)).not.toContain(t.token);
      }
    });

    it('redacts the API key as well', async () => {
      const t = await tenant();
      const key = await h.call('POST', '/v1/access/apiKeys', {
        token: t.token,
        body: { name: 'k' },
        op: 'createApiKey',
      });
      await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: key.body.key, op: 'listSkus' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      const last = reply.body.requests.at(-1);
      expect(last.headers['x-api-key']).toBe('[redacted]');
      expect(JSON.stringify(reply.body.requests.slice(-1))).not.toContain(key.body.key);
    });

    it('empties the journal on DELETE /__mock/requests (204)', async () => {
      const t = await tenant();
      await h.call('GET', '/v1/admin/tenants/self', { token: t.token, op: 'getTenantSelf' });
      const cleared = await h.call('DELETE', '/__mock/requests', { token: t.token });
      expect(cleared.status).toBe(204);
      expect((await h.call('GET', '/__mock/requests', { token: t.token })).body).toEqual({ requests: [] });
    });

    it('records refused requests of the tenant too', async () => {
      const t = await tenant();
      await h.call('GET', '/v1/items/skus?filterBy=nope[Equals]1', { token: t.token, op: 'listSkus' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      expect(reply.body.requests.map((r: { status: number }) => r.status)).toEqual([400]);
    });
  });

  describe('POST /__mock/events', () => {
    it('emits an event (202) that creates no notification without a subscription', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/events', {
        token: t.token,
        body: { eventName: 'Warehouse.Shipment.Shipped' },
      });
      expect(reply.status).toBe(202);
      expect(reply.body).toEqual({ eventId: expect.any(String), notifications: [] });
      const list = await h.call('GET', '/v1/notifications/webhook', { token: t.token, op: 'listWebhookNotifications' });
      expect(list.body.totalCount).toBe(0);
    });

    it('emits a chosen version with chosen data', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/events', {
        token: t.token,
        body: { eventName: 'Items.Sku.Created', eventVersion: 1, data: { skuId: 's', skuReference: 'r' } },
      });
      expect(reply.status).toBe(202);
    });

    it.each([
      { what: 'an unknown event', body: { eventName: 'Items.Sku.Teleported' } },
      { what: 'an unknown version', body: { eventName: 'Items.Sku.Created', eventVersion: 99 } },
    ])('answers $what with 400 NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', async ({ body }) => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/events', { token: t.token, body });
      expectProblem(reply, 400, 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', 'POST /__mock/events');
    });

    it.each([
      { what: 'no eventName', body: {}, field: 'eventName' },
      { what: 'a version 0', body: { eventName: 'Items.Sku.Created', eventVersion: 0 }, field: 'eventVersion' },
      { what: 'data that is not an object', body: { eventName: 'Items.Sku.Created', data: [1] }, field: 'data' },
    ])('answers $what with 400 naming the field', async ({ body, field }) => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/events', { token: t.token, body });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters).toEqual({ field });
    });
  });

  describe('GET /__mock/webhook-secret', () => {
    it('gives each tenant its own stable signing secret', async () => {
      const a = await tenant();
      const b = await tenant();
      const first = await h.call('GET', '/__mock/webhook-secret', { token: a.token });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ secret: expect.stringMatching(/^whsec_[0-9a-f]{40}$/) });
      expect((await h.call('GET', '/__mock/webhook-secret', { token: a.token })).body).toEqual(first.body);
      expect((await h.call('GET', '/__mock/webhook-secret', { token: b.token })).body.secret).not.toBe(
        first.body.secret,
      );
    });

    it('answers without credentials with the plain 401', async () => {
      expectProblem(await h.call('GET', '/__mock/webhook-secret', { token: null }), 401, null);
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
