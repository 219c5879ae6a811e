import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE } from '../../options.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { freePort } from '../../../common/process.js';
import { EXCERPT_CHARS } from '../delivery.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { advance, attempts, cumulative, emit, notification, subscribe, tenant, until } from './support.js';

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
    const [delivery] = await r.waitForCount(1, 2000);
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

  it('a hanging receiver costs one Timeout while a healthy receiver is delivered meanwhile', async () => {
    const t = await tenant(h);
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    await subscribe(t, hanging.url, EVENT);
    await subscribe(t, healthy.url, EVENT);
    const started = Date.now();
    const { notifications } = await emit(t, EVENT);
    expect(notifications).toHaveLength(2);
    const [slowId, fastId] = notifications as [string, string];

    await healthy.waitForCount(1, 2000);
    // Delivered and recorded while the other attempt is still hanging.
    const fast = await until(
      async () => {
        const n = await notification(t, fastId);
        return n.status === 'Success' ? n : undefined;
      },
      2000,
      'healthy delivery recorded',
    );
    expect(fast.attemptCount).toBe(1);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    expect((await notification(t, slowId)).attemptCount).toBe(0);

    await h.mock.control.idle();
    const slow = await notification(t, slowId);
    expect(slow).toMatchObject({ status: 'Pending', attemptCount: 1 });
    const [attempt] = await attempts(t, slowId);
    expect(attempt).toMatchObject({
      errorKind: 'Timeout',
      responseStatus: null,
      responseBodyExcerpt: null,
      success: false,
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS + 1500);
    expect(hanging.received).toHaveLength(1);
  });

  it('records ConnectionError for a closed port (connection refused), with no status', async () => {
    const t = await tenant(h);
    const closed = await freePort();
    await subscribe(t, `http://127.0.0.1:${closed}/hook`, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({
      number: 1,
      errorKind: 'ConnectionError',
      responseStatus: null,
      responseBodyExcerpt: null,
      success: false,
    });
    expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS);
    expect(await notification(t, id)).toMatchObject({ status: 'Pending', attemptCount: 1 });
  });

  it('records ConnectionError when the receiver resets the connection', async () => {
    const t = await tenant(h);
    const r = await receiver(() => 'reset');
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({ errorKind: 'ConnectionError', responseStatus: null, success: false });
  });

  it('never follows a redirect: a 302 is an HttpStatus failure and the target receives nothing', async () => {
    const t = await tenant(h);
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` }, body: 'moved' }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({
      errorKind: 'HttpStatus',
      responseStatus: 302,
      responseBodyExcerpt: 'moved',
      success: false,
    });
    expect((await notification(t, id)).status).toBe('Pending');
    // 307/308 keep the method and body: not followed either.
    r.respondWith(() => ({ status: 308, headers: { location: `${target.url}/elsewhere` } }));
    await advance(t, 5);
    const list = await attempts(t, id);
    expect(list[1]).toMatchObject({ errorKind: 'HttpStatus', responseStatus: 308, success: false });
    expect(target.received).toHaveLength(0);
  });

  it('reads a huge response body only up to a bound and stores a 1024-character excerpt', async () => {
    const t = await tenant(h);
    const huge = Buffer.alloc(5 * 1024 * 1024, 'x');
    const r = await receiver(({ index: i }) => (i === 0 ? { status: 500, body: huge } : { status: 200, body: huge }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    await advance(t, 5);
    const list = await attempts(t, id);
    expect(list).toHaveLength(2);
    for (const a of list) {
      expect(a.responseBodyExcerpt).toHaveLength(EXCERPT_CHARS);
      expect(a.responseBodyExcerpt).toBe('x'.repeat(1024));
      expect(a.durationMs).toBeLessThan(TIMEOUT_MS);
    }
    expect(list.map((a) => [a.responseStatus, a.errorKind, a.success])).toEqual([
      [500, 'HttpStatus', false],
      [200, null, true],
    ]);
    expect((await notification(t, id)).status).toBe('Success');
  });

  it('keeps the status of a response whose body never ends, as a Timeout', async () => {
    const t = await tenant(h);
    const r = await receiver();
    // Headers and a first chunk, then nothing: answered by hand.
    r.respondWith(() => 'hang');
    await subscribe(t, r.url, EVENT);
    const trickle = await startTrickle();
    try {
      await subscribe(t, trickle.url, EVENT);
      const { notifications } = await emit(t, EVENT);
      await h.mock.control.idle();
      const byEndpoint = new Map<string, any>();
      for (const id of notifications) byEndpoint.set((await notification(t, id)).endpoint, (await attempts(t, id))[0]);
      expect(byEndpoint.get(trickle.url)).toMatchObject({ errorKind: 'Timeout', responseStatus: 200, success: false });
      expect(byEndpoint.get(r.url)).toMatchObject({ errorKind: 'Timeout', responseStatus: null, success: false });
    } finally {
      await trickle.close();
    }
  });
});

describe('delivery concurrency and real-time retries', () => {
  it('notifications to a hanging receiver take only its share of the slots; others are served at once', async () => {
    // 4 slots in all, 1 per receiver; more hanging notifications than slots.
    const h = await startHarness({ deliveryTimeoutMs: 600, deliveryConcurrency: 4, retrySchedule: [0] });
    const hanging = await startReceiver(() => 'hang');
    const healthy = await startReceiver();
    try {
      const t = await tenant(h);
      await subscribe(t, hanging.url, EVENT);
      await subscribe(t, healthy.url, 'Items.Sku.Created', 2);
      for (let i = 0; i < 5; i++) await emit(t, EVENT);
      for (let i = 0; i < 5; i++) await emit(t, 'Items.Sku.Created');
      await healthy.waitForCount(5, 3000);
      // Served before the first hanging attempt timed out: nothing waited behind the hanging receiver.
      const failedEarly = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Failure')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(failedEarly.body.totalCount).toBe(0);
      expect(hanging.received).toHaveLength(1);
      await h.mock.control.idle();
      // One at a time, each costs its own timeout, none is lost.
      expect(hanging.received).toHaveLength(5);
      const failed = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Failure')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(failed.body.totalCount).toBe(5);
      const succeeded = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Success')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(succeeded.body.totalCount).toBe(5);
    } finally {
      await h.close();
      await Promise.all([hanging.close(), healthy.close()]);
    }
  });

  it('runs retries on real time when the clock is not advanced', async () => {
    const h = await startHarness({ deliveryTimeoutMs: 1000, retrySchedule: [0, 0.2, 0.2] });
    const r = await startReceiver(({ index: i }) => (i < 2 ? { status: 500 } : { status: 200 }));
    try {
      const t = await tenant(h);
      await subscribe(t, r.url, EVENT);
      const id = (await emit(t, EVENT)).notifications[0]!;
      const got = await r.waitForCount(3, 3000);
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(150);
      expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(150);
      await until(async () => (await notification(t, id)).status === 'Success', 2000, 'Success');
      expect((await attempts(t, id)).map((a) => a.success)).toEqual([false, false, true]);
    } finally {
      await h.close();
      await r.close();
    }
  });
});

/** A receiver that sends a status line and one chunk, then never finishes the body. */
async function startTrickle(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
