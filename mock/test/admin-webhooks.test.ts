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
