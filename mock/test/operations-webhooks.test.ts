import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWN_EVENT_NAMES } from '../../spec/test/reference-facts.js';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from './harness.js';

/** The webhook operations over state (subscriptions, events, notifications); the other operations: operations.test.ts. */
describe('the webhook operations over state', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('webhook subscriptions', () => {
    const subscriptions = '/v1/notifications/webhook/subscriptions';
    let t: string;

    beforeAll(async () => {
      t = await h.token(adminClaims(freshOrg('subs')));
    });

    it('creates (201), lists and deletes (204) a subscription; a second delete is 404', async () => {
      const body = { endpoint: 'https://receiver.example/hooks', eventName: 'Items.Sku.Created', eventVersion: 2 };
      const created = await h.call('POST', subscriptions, { token: t, body, op: 'createWebhookSubscription' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(body);
      expect(created.headers.location).toBe(`${subscriptions}/${created.body.id}`);
      const list = await h.call('GET', subscriptions, { token: t, op: 'listWebhookSubscriptions' });
      expect(list.status).toBe(200);
      expect(list.body.totalCount).toBe(1);
      expect(list.body.results).toEqual([created.body]);
      const del = await h.call('DELETE', `${subscriptions}/${created.body.id}`, {
        token: t,
        op: 'deleteWebhookSubscription',
      });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      const again = await h.call('DELETE', `${subscriptions}/${created.body.id}`, {
        token: t,
        op: 'deleteWebhookSubscription',
      });
      expectProblem(again, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect((await h.call('GET', subscriptions, { token: t, op: 'listWebhookSubscriptions' })).body.totalCount).toBe(
        0,
      );
    });

    it('answers the delete of an unknown subscription with 404', async () => {
      const reply = await h.call('DELETE', `${subscriptions}/sub_nope`, { token: t, op: 'deleteWebhookSubscription' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
    });

    it.each([
      { what: 'an unknown event name', eventName: 'Items.Sku.Teleported', eventVersion: 1 },
      { what: 'an unknown version of a known event', eventName: 'Items.Sku.Created', eventVersion: 99 },
    ])('answers $what with 400 NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', async ({ eventName, eventVersion }) => {
      const reply = await h.call('POST', subscriptions, {
        token: t,
        body: { endpoint: 'https://receiver.example/', eventName, eventVersion },
        op: 'createWebhookSubscription',
      });
      expectProblem(reply, 400, 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND');
      expect(reply.body.parameters).toEqual({ eventName, eventVersion });
    });

    it.each([
      'ftp://x',
      'not a url',
      'http://user:pw@host/',
      '',
      'https://receiver.example/#fragment',
      '/relative/path',
    ])('answers the endpoint %j with 400 NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL', async (endpoint) => {
      const reply = await h.call('POST', subscriptions, {
        token: t,
        body: { endpoint, eventName: 'Items.Sku.Created', eventVersion: 1 },
        op: 'createWebhookSubscription',
      });
      expectProblem(reply, 400, 'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL');
      expect(reply.body.parameters).toEqual({ endpoint });
    });

    it('creates nothing when it refuses', async () => {
      expect((await h.call('GET', subscriptions, { token: t, op: 'listWebhookSubscriptions' })).body.totalCount).toBe(
        0,
      );
    });
  });

  describe('events', () => {
    it('lists the events of the environment in a page envelope', async () => {
      const reply = await h.call('GET', '/v1/notifications/events?pageSize=1000', { op: 'listEvents' });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ pageNumber: 1, pageSize: 1000, totalPages: 1 });
      expect(reply.body.results).toHaveLength(reply.body.totalCount);
      const versions = await h.call('GET', '/v1/notifications/events/versions', { op: 'listEventVersions' });
      const pairs = new Set(
        versions.body.map((v: { eventName: string; eventVersion: number }) => `${v.eventName}@${v.eventVersion}`),
      );
      expect(reply.body.totalCount).toBe(pairs.size);
      for (const e of reply.body.results) expect(pairs.has(`${e.eventName}@${e.eventVersion}`)).toBe(true);
    });

    it('reads every eventName and eventVersion pair, including the seven the reference shows', async () => {
      const reply = await h.call('GET', '/v1/notifications/events/versions', { op: 'listEventVersions' });
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.body)).toBe(true);
      const names = new Set(reply.body.map((v: { eventName: string }) => v.eventName));
      expect(SHOWN_EVENT_NAMES).toHaveLength(7);
      for (const name of SHOWN_EVENT_NAMES) expect(names.has(name), name).toBe(true);
      for (const v of reply.body) expect(Number.isInteger(v.eventVersion) && v.eventVersion >= 1).toBe(true);
    });
  });

  describe('notifications', () => {
    let receiver: Server;
    let endpoint: string;
    let t: string;
    const received: string[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => {
          received.push(body);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      t = await h.token(adminClaims(freshOrg('ntf')));
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    });

    it('answers unknown notification ids with 404 on read, attempts and retry', async () => {
      expectProblem(
        await h.call('GET', '/v1/notifications/webhook/ntf_nope', { token: t, op: 'getWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expectProblem(
        await h.call('GET', '/v1/notifications/webhook/ntf_nope/attempts', {
          token: t,
          op: 'listWebhookNotificationAttempts',
        }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expectProblem(
        await h.call('POST', '/v1/notifications/webhook/ntf_nope/retry', { token: t, op: 'retryWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
    });

    it('lists no notification before any event', async () => {
      const reply = await h.call('GET', '/v1/notifications/webhook', { token: t, op: 'listWebhookNotifications' });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ results: [], pageNumber: 1, pageSize: 25, totalPages: 0, totalCount: 0 });
    });

    it('records a delivered event as a notification with its attempts, and retries it manually', async () => {
      const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token: t,
        body: { endpoint, eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1 },
        op: 'createWebhookSubscription',
      });
      expect(sub.status).toBe(201);
      const emitted = await h.call('POST', '/__mock/events', {
        token: t,
        body: { eventName: 'Warehouse.Shipment.Shipped' },
      });
      expect(emitted.status).toBe(202);
      expect(emitted.body.notifications).toHaveLength(1);
      const id = emitted.body.notifications[0] as string;
      await h.mock.control.idle();

      const list = await h.call('GET', '/v1/notifications/webhook', { token: t, op: 'listWebhookNotifications' });
      expect(list.body.totalCount).toBe(1);
      const one = await h.call('GET', `/v1/notifications/webhook/${id}`, { token: t, op: 'getWebhookNotification' });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        id,
        status: 'Success',
        eventId: emitted.body.eventId,
        subscriptionId: sub.body.id,
        attemptCount: 1,
      });
      expect(received.some((b) => b.includes(emitted.body.eventId))).toBe(true);

      const retried = await h.call('POST', `/v1/notifications/webhook/${id}/retry`, {
        token: t,
        op: 'retryWebhookNotification',
      });
      expect(retried.status).toBe(202);
      expect(retried.body).toMatchObject({ id, status: 'Pending' });
      await h.mock.control.idle();
      const attempts = await h.call('GET', `/v1/notifications/webhook/${id}/attempts`, {
        token: t,
        op: 'listWebhookNotificationAttempts',
      });
      expect(attempts.status).toBe(200);
      expect(attempts.body.totalCount).toBe(2);
      expect(attempts.body.results.map((a: { trigger: string; success: boolean }) => [a.trigger, a.success])).toEqual([
        ['Scheduled', true],
        ['Manual', true],
      ]);
    });
  });
});
