import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedContract } from '../../../spec/shared-contract.js';
import { expectProblem, startHarness, type Harness } from '../../test/harness.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { advance, attempts, emit, notification, payloadComponent, subscribe, tenant, type Tenant } from './support.js';

const { validator } = sharedContract();
const SHIPPED = 'Warehouse.Shipment.Shipped';
const enc = encodeURIComponent;

describe('fan-out, emission from writes, history and isolation', () => {
  let h: Harness;
  let ok: WebhookReceiver;
  let failing: WebhookReceiver;

  beforeAll(async () => {
    h = await startHarness({ deliveryTimeoutMs: 1000, retrySchedule: [0, 60] });
    ok = await startReceiver();
    failing = await startReceiver(() => ({ status: 500, body: 'no' }));
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all([ok?.close(), failing?.close()]);
  });

  it('fans out: two subscriptions on one event and one on another give the right notifications', async () => {
    const t = await tenant(h);
    const a = await subscribe(t, `${ok.url}/a`, SHIPPED);
    const b = await subscribe(t, `${ok.url}/b`, SHIPPED);
    const c = await subscribe(t, `${ok.url}/c`, 'Items.Sku.Created', 2);
    const before = ok.received.length;

    const shipped = await emit(t, SHIPPED);
    expect(shipped.notifications).toHaveLength(2);
    const created = await emit(t, 'Items.Sku.Created');
    expect(created.notifications).toHaveLength(1);
    const none = await emit(t, 'Warehouse.Receipt.Received');
    expect(none.notifications).toEqual([]);
    await h.mock.control.idle();

    const shippedSubs = await Promise.all(
      shipped.notifications.map(async (id) => (await notification(t, id)).subscriptionId),
    );
    expect(shippedSubs.sort()).toEqual([a.id, b.id].sort());
    const createdOne = await notification(t, created.notifications[0]!);
    expect(createdOne).toMatchObject({
      subscriptionId: c.id,
      eventName: 'Items.Sku.Created',
      eventVersion: 2,
      status: 'Success',
    });

    const mine = ok.received.slice(before);
    expect(mine).toHaveLength(3);
    const byPath = (path: string) => mine.filter((d) => d.path === path).map((d) => d.headers['x-event-id']);
    expect(byPath('/a')).toEqual([shipped.eventId]);
    expect(byPath('/b')).toEqual([shipped.eventId]);
    expect(byPath('/c')).toEqual([created.eventId]);
    // One event, one id: both notifications of the fan-out carry the same event id, each its own notification id.
    const ab = mine.filter((d) => d.path !== '/c');
    expect(new Set(ab.map((d) => d.headers['x-notification-id'])).size).toBe(2);
    expect(
      validator.validateSchema(payloadComponent('Items.Sku.Created', 2), mine.find((d) => d.path === '/c')!.json),
    ).toEqual({ ok: true });
  });

  it('a stock update (PUT /v1/items/skus/{ref}/stock) emits Warehouse.Stock.Updated projected to each subscribed version', async () => {
    const t = await tenant(h);
    const v1 = await subscribe(t, `${ok.url}/stock-v1`, 'Warehouse.Stock.Updated', 1);
    const v2 = await subscribe(t, `${ok.url}/stock-v2`, 'Warehouse.Stock.Updated', 2);
    const manifest = (await t.call('GET', '/__mock/fixtures')).body;
    const reference = manifest.sku.reference as string;
    const before = ok.received.length;
    const put = await t.call('PUT', `/v1/items/skus/${enc(reference)}/stock`, {
      body: { locationReference: manifest.sku.locationReference, stock: 42 },
      op: 'updateSkuStock',
    });
    expect(put.status, put.text).toBe(204);
    await h.mock.control.idle();

    const list = await t.call(
      'GET',
      `/v1/notifications/webhook?filterBy=${enc('eventName[Equals]Warehouse.Stock.Updated')}`,
      { op: 'listWebhookNotifications' },
    );
    expect(list.body.totalCount).toBe(2);
    const bySub = new Map<string, any>(list.body.results.map((n: any) => [n.subscriptionId, n]));
    const one = bySub.get(v1.id);
    const two = bySub.get(v2.id);
    expect(one.status).toBe('Success');
    expect(one.eventId).toBe(two.eventId);
    expect(Object.keys(one.payload.data).sort()).toEqual(['locationReference', 'skuId', 'skuReference', 'stock']);
    expect(one.payload.data).toMatchObject({
      skuReference: reference,
      locationReference: manifest.sku.locationReference,
      stock: 42,
    });
    expect(Object.keys(two.payload.data).sort()).toEqual([
      'locationReference',
      'lotId',
      'previousStock',
      'skuId',
      'skuReference',
      'stock',
      'unitOfMeasureId',
    ]);
    expect(two.payload.data).toMatchObject({ skuReference: reference, stock: 42, lotId: null });
    expect(validator.validateSchema(payloadComponent('Warehouse.Stock.Updated', 1), one.payload)).toEqual({ ok: true });
    expect(validator.validateSchema(payloadComponent('Warehouse.Stock.Updated', 2), two.payload)).toEqual({ ok: true });
    expect(validator.validateSchema('WebhookPayload', two.payload)).toEqual({ ok: true });

    const delivered = ok.received.slice(before);
    expect(delivered.map((d) => d.path).sort()).toEqual(['/stock-v1', '/stock-v2']);
    expect(delivered.find((d) => d.path === '/stock-v1')!.json).toEqual(one.payload);
    // The v1 payload fails the v2 schema: the projection is real.
    expect(validator.validateSchema(payloadComponent('Warehouse.Stock.Updated', 2), one.payload).ok).toBe(false);
  });

  describe('history', () => {
    let t: Tenant;
    const ids: { shipped: string[]; received: string[]; failed: string[] } = { shipped: [], received: [], failed: [] };
    let midpoint = '';

    beforeAll(async () => {
      t = await tenant(h);
      await subscribe(t, ok.url, SHIPPED);
      await subscribe(t, failing.url, 'Warehouse.Receipt.Received');
      ids.shipped.push(...(await emit(t, SHIPPED)).notifications);
      ids.failed.push(...(await emit(t, 'Warehouse.Receipt.Received')).notifications);
      await h.mock.control.idle();
      // One hour later (the failed one walks its schedule to Failure meanwhile).
      await advance(t, 3600);
      midpoint = (await t.call('GET', '/__mock/clock')).body.now;
      ids.shipped.push(...(await emit(t, SHIPPED)).notifications);
      ids.received.push(...(await emit(t, 'Warehouse.Receipt.Received')).notifications);
      await h.mock.control.idle();
    });

    const list = async (query: string) => {
      const reply = await t.call('GET', `/v1/notifications/webhook?${query}`, { op: 'listWebhookNotifications' });
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };

    it('lists every notification of the tenant, newest first with sortBy=-createdAt', async () => {
      const all = await list('pageSize=100&sortBy=-createdAt');
      expect(all.totalCount).toBe(4);
      const created = all.results.map((n: any) => Date.parse(n.createdAt));
      expect(created).toEqual([...created].sort((a, b) => b - a));
      expect(created[0]).toBeGreaterThan(created[3]);
    });

    it('filters by status[Equals]Failure', async () => {
      const failed = await list(`filterBy=${enc('status[Equals]Failure')}`);
      expect(failed.results.map((n: any) => n.id)).toEqual(ids.failed);
      expect(failed.results[0]).toMatchObject({ status: 'Failure', attemptCount: 2, nextAttemptAt: null });
      const pending = await list(`filterBy=${enc('status[Equals]Pending')}`);
      // The second receipt failed its first attempt and waits for the retry at +60s.
      expect(pending.results.map((n: any) => n.id)).toEqual(ids.received);
    });

    it('filters by eventName[Equals] and by createdAt[IsOnOrAfter], and combines them', async () => {
      const shipped = await list(`filterBy=${enc(`eventName[Equals]${SHIPPED}`)}&sortBy=createdAt`);
      expect(shipped.results.map((n: any) => n.id)).toEqual(ids.shipped);
      const recent = await list(`filterBy=${enc(`createdAt[IsOnOrAfter]${midpoint}`)}&sortBy=-createdAt`);
      expect(recent.results.map((n: any) => n.id).sort()).toEqual([...ids.shipped.slice(1), ...ids.received].sort());
      const both = await list(`filterBy=${enc(`createdAt[IsOnOrAfter]${midpoint} && eventName[Equals]${SHIPPED}`)}`);
      expect(both.results.map((n: any) => n.id)).toEqual(ids.shipped.slice(1));
    });

    it('reads one notification and its attempts', async () => {
      const id = ids.failed[0]!;
      const one = await notification(t, id);
      expect(one).toMatchObject({
        id,
        status: 'Failure',
        eventName: 'Warehouse.Receipt.Received',
        endpoint: failing.url,
      });
      expect(validator.validateSchema(payloadComponent('Warehouse.Receipt.Received', 1), one.payload)).toEqual({
        ok: true,
      });
      const list = await attempts(t, id);
      expect(list.map((a) => [a.number, a.trigger, a.responseStatus, a.errorKind])).toEqual([
        [1, 'Scheduled', 500, 'HttpStatus'],
        [2, 'Scheduled', 500, 'HttpStatus'],
      ]);
      expect(Date.parse(list[1].startedAt) - Date.parse(list[0].startedAt)).toBeGreaterThanOrEqual(59_900);
      const sorted = await t.call(
        'GET',
        `/v1/notifications/webhook/${id}/attempts?sortBy=-number&filterBy=${enc('success[Equals]false')}`,
        { op: 'listWebhookNotificationAttempts' },
      );
      expect(sorted.body.results.map((a: any) => a.number)).toEqual([2, 1]);
    });

    it('answers 404 for unknown notification ids on get, attempts and retry', async () => {
      expectProblem(
        await t.call('GET', '/v1/notifications/webhook/ntf_unknown', { op: 'getWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expectProblem(
        await t.call('GET', '/v1/notifications/webhook/ntf_unknown/attempts', {
          op: 'listWebhookNotificationAttempts',
        }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expectProblem(
        await t.call('POST', '/v1/notifications/webhook/ntf_unknown/retry', { op: 'retryWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
    });

    it('isolates tenants: another org can neither read nor retry the notification (404) and lists none', async () => {
      const other = await tenant(h, 'other');
      const id = ids.shipped[0]!;
      expectProblem(
        await other.call('GET', `/v1/notifications/webhook/${id}`, { op: 'getWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expectProblem(
        await other.call('GET', `/v1/notifications/webhook/${id}/attempts`, { op: 'listWebhookNotificationAttempts' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      const before = ok.received.length;
      expectProblem(
        await other.call('POST', `/v1/notifications/webhook/${id}/retry`, { op: 'retryWebhookNotification' }),
        404,
        'COMMON.ENTITY.NOT_FOUND',
      );
      expect(
        (await other.call('GET', '/v1/notifications/webhook', { op: 'listWebhookNotifications' })).body.totalCount,
      ).toBe(0);
      // Its clock and events do not touch this tenant either.
      await advance(other, 86_400);
      await other.call('POST', '/__mock/events', { body: { eventName: SHIPPED } });
      await h.mock.control.idle();
      expect(ok.received.length).toBe(before);
      expect((await notification(t, id)).attemptCount).toBe(1);
    });
  });
});
