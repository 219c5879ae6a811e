/** Webhook delivery to real receivers: success, the retry schedule and manual retries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../options.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { advance, attempts, cumulative, emit, notification, subscribe, tenant } from './support.js';

/** The retry schedule of a mock started without one. */
const DEFAULT_RETRY_SCHEDULE = defaultOptions().retrySchedule;

const EVENT = 'Warehouse.Shipment.Shipped';
const TIMEOUT_MS = 250;

describe('webhook delivery to real receivers', () => {
  let h: Harness;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    // The default retry schedule; a short per-attempt timeout so timeouts are quick to observe.
    h = await startHarness({ deliveryTimeoutMs: TIMEOUT_MS });
    expect(h.mock.control.options.retrySchedule).toEqual(DEFAULT_RETRY_SCHEDULE);
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('delivers to a 2xx receiver: Success with one Scheduled attempt, within milliseconds of the event', async () => {
    const t = await tenant(h);
    const r = await receiver();
    const sub = await subscribe(t, `${r.url}/hook`, EVENT);
    const sentAt = Date.now();
    const { eventId, notifications } = await emit(t, EVENT);
    expect(notifications).toHaveLength(1);
    const [delivery] = await r.waitForCount(1, 10_000);
    // The first attempt runs on the next turn of the event loop after the emitting request: no timer, no batching.
    expect(delivery!.at - sentAt).toBeLessThan(500);
    expect(delivery!.method).toBe('POST');
    expect(delivery!.path).toBe('/hook');
    expect(delivery!.headers['x-event-id']).toBe(eventId);
    expect(delivery!.headers['content-type']).toBe('application/json');
    await h.mock.control.idle();

    const id = notifications[0]!;
    const n = await notification(t, id);
    expect(n).toMatchObject({
      id,
      status: 'Success',
      eventId,
      eventName: EVENT,
      eventVersion: 1,
      subscriptionId: sub.id,
      attemptCount: 1,
      nextAttemptAt: null,
    });
    const list = await attempts(t, id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      notificationId: id,
      number: 1,
      trigger: 'Scheduled',
      responseStatus: 200,
      responseBodyExcerpt: 'ok',
      errorKind: null,
      success: true,
    });
    expect(Number.isInteger(list[0].durationMs)).toBe(true);
    expect(list[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(list[0].durationMs).toBeLessThan(2000);
    expect(Date.parse(list[0].startedAt)).toBeGreaterThanOrEqual(Date.parse(n.createdAt));
    expect(Date.parse(list[0].endedAt)).toBeGreaterThanOrEqual(Date.parse(list[0].startedAt));
    expect(n.lastAttemptAt).toBe(list[0].startedAt);
  });

  it('retries a 500 on the schedule: Pending with nextAttemptAt = created + 5s, then Success when the clock reaches it', async () => {
    const t = await tenant(h);
    const r = await receiver(({ index: i }) => (i === 0 ? { status: 500, body: 'boom' } : { status: 204 }));
    await subscribe(t, r.url, EVENT);
    const { notifications } = await emit(t, EVENT);
    const id = notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    const pending = await notification(t, id);
    expect(pending).toMatchObject({ status: 'Pending', attemptCount: 1 });
    expect(Date.parse(pending.nextAttemptAt) - Date.parse(pending.createdAt)).toBe(5000);
    const [first] = await attempts(t, id);
    expect(first).toMatchObject({
      number: 1,
      trigger: 'Scheduled',
      responseStatus: 500,
      responseBodyExcerpt: 'boom',
      errorKind: 'HttpStatus',
      success: false,
    });

    // Not yet due: nothing happens.
    await advance(t, 4);
    expect(r.received).toHaveLength(1);
    expect((await notification(t, id)).status).toBe('Pending');
    // Due: the clock call answers after the retry ran.
    await advance(t, 1);
    expect(r.received).toHaveLength(2);
    const done = await notification(t, id);
    expect(done).toMatchObject({ status: 'Success', attemptCount: 2, nextAttemptAt: null });
    const list = await attempts(t, id);
    expect(list.map((a) => [a.number, a.trigger, a.responseStatus, a.errorKind, a.success])).toEqual([
      [1, 'Scheduled', 500, 'HttpStatus', false],
      [2, 'Scheduled', 204, null, true],
    ]);
    expect(Date.parse(list[1].startedAt) - Date.parse(done.createdAt)).toBe(5000);
  });

  it('walks the WHOLE default schedule with one clock jump: 8 attempts at created + 0, 5s, 5m, 30m, 2h, 5h, 10h, 10h, then Failure', async () => {
    const t = await tenant(h);
    const r = await receiver(() => ({ status: 503, body: 'down' }));
    await subscribe(t, r.url, EVENT);
    const { notifications } = await emit(t, EVENT);
    const id = notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    expect(await notification(t, id)).toMatchObject({ status: 'Pending', attemptCount: 1 });

    const total = cumulative(DEFAULT_RETRY_SCHEDULE, DEFAULT_RETRY_SCHEDULE.length);
    expect(total).toBe(99_305);
    const started = Date.now();
    await advance(t, total + 60);
    const wall = Date.now() - started;
    expect(wall).toBeLessThan(3000);

    expect(r.received).toHaveLength(8);
    const n = await notification(t, id);
    expect(n).toMatchObject({ status: 'Failure', attemptCount: 8, nextAttemptAt: null });
    const list = await attempts(t, id);
    expect(list).toHaveLength(8);
    expect(list.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      list.every(
        (a) => a.trigger === 'Scheduled' && a.responseStatus === 503 && a.errorKind === 'HttpStatus' && !a.success,
      ),
    ).toBe(true);
    // Each attempt is recorded at its due time: previous due time + next delay.
    const created = Date.parse(n.createdAt);
    for (let k = 1; k < 8; k++)
      expect(Date.parse(list[k].startedAt) - created).toBe(cumulative(DEFAULT_RETRY_SCHEDULE, k + 1) * 1000);
    expect(n.lastAttemptAt).toBe(list[7].startedAt);

    // Exhausted: no further automatic attempt, however far the clock goes.
    await advance(t, 7 * 24 * 3600);
    expect(r.received).toHaveLength(8);
    expect(h.mock.control.stats().pendingDeliveries).toBe(0);
  });

  it('a manual retry after the receiver recovers ends Success with a Manual attempt and cancels the scheduled retries', async () => {
    const t = await tenant(h);
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200, body: 'thanks' } : { status: 502 }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    expect(await notification(t, id)).toMatchObject({ status: 'Pending', attemptCount: 1 });

    healthy = true;
    const retried = await t.call('POST', `/v1/notifications/webhook/${id}/retry`, { op: 'retryWebhookNotification' });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id, status: 'Pending', nextAttemptAt: null });
    await h.mock.control.idle();
    expect(await notification(t, id)).toMatchObject({ status: 'Success', attemptCount: 2, nextAttemptAt: null });
    const list = await attempts(t, id);
    expect(list.map((a) => [a.number, a.trigger, a.success])).toEqual([
      [1, 'Scheduled', false],
      [2, 'Manual', true],
    ]);
    expect(list[1]).toMatchObject({ responseStatus: 200, responseBodyExcerpt: 'thanks', errorKind: null });
    // The automatic retry that was due at +5s is gone.
    await advance(t, 3600);
    expect(r.received).toHaveLength(2);
    expect((await notification(t, id)).status).toBe('Success');
  });

  it('a manual retry of a Success re-delivers it and a failing manual retry ends Failure', async () => {
    const t = await tenant(h);
    let status = 200;
    const r = await receiver(() => ({ status }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    expect((await notification(t, id)).status).toBe('Success');
    status = 500;
    expect(
      (await t.call('POST', `/v1/notifications/webhook/${id}/retry`, { op: 'retryWebhookNotification' })).status,
    ).toBe(202);
    await h.mock.control.idle();
    expect(await notification(t, id)).toMatchObject({ status: 'Failure', attemptCount: 2, nextAttemptAt: null });
    expect(r.received.map((d) => d.headers['x-event-id'])).toEqual([
      r.received[0]!.headers['x-event-id'],
      r.received[0]!.headers['x-event-id'],
    ]);
  });

  it('a manual retry during an automatic attempt decides the state; the late automatic attempt is only recorded', async () => {
    const t = await tenant(h);
    const r = await receiver(({ index: i }) => (i === 0 ? 'hang' : { status: 200 }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    expect(
      (await t.call('POST', `/v1/notifications/webhook/${id}/retry`, { op: 'retryWebhookNotification' })).status,
    ).toBe(202);
    await h.mock.control.idle();
    const n = await notification(t, id);
    expect(n).toMatchObject({ status: 'Success', attemptCount: 2, nextAttemptAt: null });
    const list = await attempts(t, id);
    expect(list.map((a) => [a.number, a.trigger, a.errorKind, a.success])).toEqual([
      [1, 'Manual', null, true],
      [2, 'Scheduled', 'Timeout', false],
    ]);
    // The timed-out automatic attempt scheduled nothing.
    await advance(t, 3600);
    expect(r.received).toHaveLength(2);
    expect((await notification(t, id)).status).toBe('Success');
  });
});
