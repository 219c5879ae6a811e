import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from './harness.js';

const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';
const subscription = (endpoint = 'http://127.0.0.1:9/hook') => ({
  endpoint,
  eventName: 'Warehouse.Shipment.Shipped',
  eventVersion: 1,
});

/** The bounds of one tenant's collections (`--max-subscriptions`, `--max-api-keys`, Pending notifications, attempts). */
describe('per-tenant bounds', () => {
  describe('subscriptions and API keys beyond their bound', () => {
    let h: InjectHarness;
    beforeAll(async () => {
      h = await injectHarness({ maxSubscriptions: 3, maxApiKeys: 2 });
    });
    afterAll(async () => h?.close());

    it('refuses a subscription beyond --max-subscriptions with 409 PLAN_LIMIT_EXCEEDED naming the limit, until one is deleted', async () => {
      const token = await h.token(adminClaims(freshOrg('subs')));
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await h.call('POST', SUBSCRIPTIONS, {
          token,
          body: subscription(),
          op: 'createWebhookSubscription',
        });
        expect(created.status, created.text).toBe(201);
        ids.push(created.body.id);
      }
      // `op` checks the answer against the contract: the create operation declares the 409.
      const refused = await h.call('POST', SUBSCRIPTIONS, {
        token,
        body: subscription(),
        op: 'createWebhookSubscription',
      });
      expectProblem(refused, 409, 'COMMON.TENANT.PLAN_LIMIT_EXCEEDED', `POST ${SUBSCRIPTIONS}`);
      expect(refused.body.parameters).toEqual({ limit: 'max-subscriptions', resource: 'Subscription', maximum: 3 });
      expect(refused.body.detail).toMatch(/3 webhook subscriptions.*max-subscriptions/);
      const list = await h.call('GET', SUBSCRIPTIONS, { token, op: 'listWebhookSubscriptions' });
      expect(list.body.totalCount).toBe(3);

      // A bad body still gets its own answer first, and another tenant is not bounded by this one.
      const bad = await h.call('POST', SUBSCRIPTIONS, {
        token,
        body: subscription('not a url'),
        op: 'createWebhookSubscription',
      });
      expectProblem(bad, 400, 'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL');
      const other = await h.token(adminClaims(freshOrg('subs-other')));
      expect((await h.call('POST', SUBSCRIPTIONS, { token: other, body: subscription() })).status).toBe(201);

      const deleted = await h.call('DELETE', `${SUBSCRIPTIONS}/${ids[0]}`, { token });
      expect(deleted.status).toBe(204);
      const again = await h.call('POST', SUBSCRIPTIONS, {
        token,
        body: subscription(),
        op: 'createWebhookSubscription',
      });
      expect(again.status, again.text).toBe(201);
    });

    it('refuses an API key beyond --max-api-keys, and makes room by forgetting the oldest revoked key', async () => {
      const token = await h.token(adminClaims(freshOrg('keys')));
      const create = (name: string) =>
        h.call('POST', '/v1/access/apiKeys', { token, body: { name }, op: 'createApiKey' });
      const first = await create('first');
      const second = await create('second');
      expect([first.status, second.status]).toEqual([201, 201]);
      const refused = await create('third');
      expectProblem(refused, 409, 'COMMON.TENANT.PLAN_LIMIT_EXCEEDED', 'POST /v1/access/apiKeys');
      expect(refused.body.parameters).toEqual({ limit: 'max-api-keys', resource: 'ApiKey', maximum: 2 });

      expect((await h.call('DELETE', `/__mock/api-keys/${first.body.id}`, { token })).status).toBe(204);
      const third = await create('third');
      expect(third.status, third.text).toBe(201);
      // The revoked record was forgotten to make room: its id is unknown now, its key still refused (plain 401).
      expectProblem(
        await h.call('DELETE', `/__mock/api-keys/${first.body.id}`, { token }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      const withRevoked = await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: first.body.key });
      expectProblem(withRevoked, 401, null);
      const withLive = await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: third.body.key });
      expect(withLive.status).toBe(200);
      // Two active keys, none revoked: the next one is refused again.
      expect((await create('fourth')).status).toBe(409);
    });
  });

  describe('Pending notifications beyond their bound', () => {
    let h: InjectHarness;
    beforeAll(async () => {
      // The first attempt is due in an hour: nothing is sent while the test looks at what is Pending.
      h = await injectHarness({ maxPendingNotifications: 5, retrySchedule: [3600] });
    });
    afterAll(async () => h?.close());

    it('ends the oldest Pending notifications as Failure with the reason, and cancels their scheduled attempts', async () => {
      const token = await h.token(adminClaims(freshOrg('pending')));
      for (let i = 0; i < 3; i++) await h.call('POST', SUBSCRIPTIONS, { token, body: subscription() });
      const made: string[] = [];
      for (let i = 0; i < 4; i++) {
        const emitted = await h.call('POST', '/__mock/events', {
          token,
          body: { eventName: 'Warehouse.Shipment.Shipped' },
        });
        expect(emitted.status, emitted.text).toBe(202);
        made.push(...emitted.body.notifications);
      }
      expect(made).toHaveLength(12);
      const pending = await h.call('GET', '/v1/notifications/webhook?pageSize=100&filterBy=status%5BEquals%5DPending', {
        token,
        op: 'listWebhookNotifications',
      });
      expect(pending.body.results.map((n: { id: string }) => n.id)).toEqual(made.slice(7));
      expect(h.mock.control.stats().pendingDeliveries).toBe(5);

      const oldest = await h.call('GET', `/v1/notifications/webhook/${made[0]}`, {
        token,
        op: 'getWebhookNotification',
      });
      expect(oldest.body).toMatchObject({ status: 'Failure', nextAttemptAt: null, attemptCount: 0 });
      expect(oldest.body.failureReason).toMatch(/bound of 5 Pending notifications \(--max-pending-notifications\)/);
      const newest = await h.call('GET', `/v1/notifications/webhook/${made[11]}`, {
        token,
        op: 'getWebhookNotification',
      });
      expect(newest.body).toMatchObject({ status: 'Pending', failureReason: null });

      // A manual retry of an ended notification makes it Pending again, the reason cleared.
      const retried = await h.call('POST', `/v1/notifications/webhook/${made[0]}/retry`, {
        token,
        op: 'retryWebhookNotification',
      });
      expect(retried.status, retried.text).toBe(202);
      expect(retried.body).toMatchObject({ status: 'Pending', failureReason: null });
      await h.mock.control.idle();
    });
  });

  describe('attempts of one notification beyond their bound', () => {
    let h: InjectHarness;
    let receiver: Server;
    let url: string;
    beforeAll(async () => {
      h = await injectHarness({ maxAttemptsPerNotification: 3, retrySchedule: [0] });
      receiver = createServer((_req, res) => res.writeHead(500).end('no'));
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    afterAll(async () => {
      await h?.close();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    it('drops the oldest attempt from the record beyond --max-attempts-per-notification; attemptCount counts them all', async () => {
      const token = await h.token(adminClaims(freshOrg('attempts')));
      await h.call('POST', SUBSCRIPTIONS, { token, body: subscription(url) });
      const emitted = await h.call('POST', '/__mock/events', {
        token,
        body: { eventName: 'Warehouse.Shipment.Shipped' },
      });
      const id = emitted.body.notifications[0] as string;
      await h.mock.control.idle();
      for (let i = 0; i < 4; i++) {
        expect((await h.call('POST', `/v1/notifications/webhook/${id}/retry`, { token })).status).toBe(202);
        await h.mock.control.idle();
      }
      const notification = await h.call('GET', `/v1/notifications/webhook/${id}`, { token });
      expect(notification.body).toMatchObject({ status: 'Failure', attemptCount: 5 });
      const list = await h.call('GET', `/v1/notifications/webhook/${id}/attempts?pageSize=100`, {
        token,
        op: 'listWebhookNotificationAttempts',
      });
      expect(list.body.results.map((a: { number: number; trigger: string }) => [a.number, a.trigger])).toEqual([
        [3, 'Manual'],
        [4, 'Manual'],
        [5, 'Manual'],
      ]);
    });
  });
});
