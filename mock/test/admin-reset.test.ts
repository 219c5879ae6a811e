import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTenant, expectProblem, injectHarness, type InjectHarness } from './harness.js';

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const tenant = () => adminTenant(h);

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
});
