import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import { defaultOptions } from '../../options.js';
import { Store } from '../../store/store.js';
import type { TenantState } from '../../store/tenant-state.js';
import { WebhookEngine } from '../engine.js';
import { verifySignature } from '../../../common/signature.js';
import { hmacSigner } from '../signer.js';
import { FakeTime } from './fake-time.js';
import { FakeTransport, type Answer } from './fake-transport.js';

const EVENT = 'Warehouse.Shipment.Shipped';
const ENDPOINT = 'https://receiver.example/hooks';
const SCHEDULE = defaultOptions().retrySchedule;
const SECOND = 1000;

/** Sum of the first `n` delays of the schedule, seconds. */
const cumulative = (n: number) => SCHEDULE.slice(0, n).reduce((a, b) => a + b, 0);

/** An engine on a real store, with fake real time and timers and a fake transport: no socket, no waiting. */
function setUp() {
  const time = new FakeTime();
  const transport = new FakeTransport(time);
  const store = new Store({
    seed: DEFAULT_SEED,
    skus: 5,
    maxTenants: 10,
    webhookKey: 'engine-test-secret',
    clock: time,
  });
  const engine = new WebhookEngine(
    store,
    { retrySchedule: SCHEDULE, concurrency: 64 },
    { clock: time, transport, signer: hmacSigner, timers: time },
  );
  const tenant = store.tenant('engine-test');
  const subscribe = (id = 'sub_1') =>
    tenant.commit('subscription', id, {
      id,
      endpoint: ENDPOINT,
      eventName: EVENT,
      eventVersion: 1,
      createdAt: tenant.nowIso(),
    });
  const emitOne = (): string => {
    const emission = engine.emit(tenant, { eventName: EVENT });
    if ('error' in emission) throw new Error(emission.error);
    expect(emission.notifications).toHaveLength(1);
    return emission.notifications[0]!;
  };
  // Queued turns run first: the engine waits for them when it closes, and only the test runs them.
  const close = async () => {
    await time.settle();
    await engine.close();
  };
  return { time, transport, store, engine, tenant, subscribe, emitOne, close };
}

const notification = (tenant: TenantState, id: string) => tenant.notifications.get(id)!;
const attempts = (tenant: TenantState, id: string) => tenant.attemptsOf(id);
const offsetFrom = (createdAt: string, instant: string) => (Date.parse(instant) - Date.parse(createdAt)) / SECOND;

describe('the webhook engine without sockets', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('walks a notification through the whole schedule on real time to Failure, then a manual retry ends it Success', async () => {
    const { time, transport, engine, tenant, subscribe, emitOne, close: stop } = setUp();
    close = stop;
    subscribe();
    transport.answer = () => ({ status: 503, body: 'down' });
    const id = emitOne();
    const created = notification(tenant, id).createdAt;
    expect(notification(tenant, id)).toMatchObject({ status: 'Pending', attemptCount: 0, nextAttemptAt: created });

    // The first attempt runs on the next turn, then each retry when real time reaches its due time.
    await time.settle();
    expect(notification(tenant, id)).toMatchObject({ status: 'Pending', attemptCount: 1 });
    for (let k = 1; k < SCHEDULE.length; k++) {
      expect(offsetFrom(created, notification(tenant, id).nextAttemptAt!)).toBe(cumulative(k + 1));
      await time.advance(SCHEDULE[k]! * SECOND - 1);
      expect(notification(tenant, id).attemptCount).toBe(k);
      await time.advance(1);
      expect(notification(tenant, id).attemptCount).toBe(k + 1);
    }

    expect(notification(tenant, id)).toMatchObject({ status: 'Failure', attemptCount: 8, nextAttemptAt: null });
    const history = attempts(tenant, id);
    expect(history.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(history.map((a) => offsetFrom(created, a.startedAt))).toEqual([0, 5, 305, 2105, 9305, 27305, 63305, 99305]);
    expect(
      history.every(
        (a) => a.trigger === 'Scheduled' && a.responseStatus === 503 && a.errorKind === 'HttpStatus' && !a.success,
      ),
    ).toBe(true);
    // Exhausted: nothing scheduled, no timer left, however far real time goes.
    expect(engine.pendingCount()).toBe(0);
    expect(time.timeoutsAt).toEqual([]);
    await time.advance(7 * 24 * 3600 * SECOND);
    expect(transport.requests).toHaveLength(8);

    transport.answer = () => ({ status: 200, body: 'thanks' });
    const retried = engine.retry(tenant, id);
    expect(retried).toMatchObject({ id, status: 'Pending', nextAttemptAt: null });
    await time.settle();
    expect(notification(tenant, id)).toMatchObject({ status: 'Success', attemptCount: 9, nextAttemptAt: null });
    expect(attempts(tenant, id).at(-1)).toMatchObject({
      number: 9,
      trigger: 'Manual',
      responseStatus: 200,
      responseBodyExcerpt: 'thanks',
      errorKind: null,
      success: true,
    });

    // Every request was the same signed event to the same receiver.
    const eventId = notification(tenant, id).eventId;
    for (const request of transport.requests) {
      expect(request.endpoint).toBe(ENDPOINT);
      expect(request.headers['x-event-id']).toBe(eventId);
      expect(verifySignature(request.body, request.headers['x-hmac-signature'], tenant.webhookSecret)).toBe(true);
    }
    expect(transport.requests).toHaveLength(9);
  });

  it('runs the whole schedule in one clock jump, each attempt recorded at its due time', async () => {
    const { time, transport, engine, tenant, subscribe, emitOne, close: stop } = setUp();
    close = stop;
    subscribe();
    transport.answer = (_request, index) =>
      index < 3 ? { error: index === 0 ? 'ConnectionError' : 'Timeout' } : { status: 500 };
    const id = emitOne();
    await time.settle();

    await engine.advance(tenant, cumulative(SCHEDULE.length) + 60);
    await time.settle();
    const n = notification(tenant, id);
    expect(n).toMatchObject({ status: 'Failure', attemptCount: 8, nextAttemptAt: null });
    expect(attempts(tenant, id).map((a) => offsetFrom(n.createdAt, a.startedAt))).toEqual([
      0, 5, 305, 2105, 9305, 27305, 63305, 99305,
    ]);
    expect(attempts(tenant, id).map((a) => a.errorKind)).toEqual([
      'ConnectionError',
      'Timeout',
      'Timeout',
      'HttpStatus',
      'HttpStatus',
      'HttpStatus',
      'HttpStatus',
      'HttpStatus',
    ]);
    expect(n.lastAttemptAt).toBe(attempts(tenant, id).at(-1)!.startedAt);
    expect(transport.requests).toHaveLength(8);
  });

  it('a manual retry during an automatic attempt decides the state; the late automatic attempt is only recorded', async () => {
    const { time, transport, engine, tenant, subscribe, emitOne, close: stop } = setUp();
    close = stop;
    subscribe();
    let answerFirst: (answer: Answer) => void = () => undefined;
    transport.answer = (_request, index) =>
      index === 0 ? new Promise<Answer>((resolve) => (answerFirst = resolve)) : { status: 200 };
    const id = emitOne();
    await time.settle();
    expect(transport.requests).toHaveLength(1);

    engine.retry(tenant, id);
    await time.settle();
    expect(notification(tenant, id)).toMatchObject({ status: 'Success', attemptCount: 1 });

    answerFirst({ error: 'Timeout' });
    await time.settle();
    await engine.idle();
    expect(notification(tenant, id)).toMatchObject({ status: 'Success', attemptCount: 2, nextAttemptAt: null });
    expect(attempts(tenant, id).map((a) => [a.number, a.trigger, a.success])).toEqual([
      [1, 'Manual', true],
      [2, 'Scheduled', false],
    ]);
    // The failed automatic attempt scheduled nothing.
    expect(engine.pendingCount()).toBe(0);
    expect(time.timeoutsAt).toEqual([]);
  });

  describe('after the subscription was deleted', () => {
    it('a manual retry still re-delivers, to the endpoint the notification recorded', async () => {
      const { time, transport, engine, tenant, subscribe, emitOne, close: stop } = setUp();
      close = stop;
      subscribe('sub_gone');
      const id = emitOne();
      await time.settle();
      expect(notification(tenant, id).status).toBe('Success');

      tenant.commit('subscription', 'sub_gone', null);
      expect(tenant.subscriptions.has('sub_gone')).toBe(false);
      expect(engine.retry(tenant, id)).toMatchObject({ status: 'Pending', subscriptionId: 'sub_gone' });
      await time.settle();
      expect(notification(tenant, id)).toMatchObject({ status: 'Success', attemptCount: 2 });
      expect(transport.requests.map((r) => r.endpoint)).toEqual([ENDPOINT, ENDPOINT]);
    });

    it('its scheduled automatic attempts still run, and a new event makes no notification', async () => {
      const { time, transport, engine, tenant, subscribe, emitOne, close: stop } = setUp();
      close = stop;
      subscribe('sub_gone');
      transport.answer = (_request, index) => (index === 0 ? { status: 500 } : { status: 204 });
      const id = emitOne();
      await time.settle();
      tenant.commit('subscription', 'sub_gone', null);

      await time.advance(5 * SECOND);
      expect(notification(tenant, id)).toMatchObject({ status: 'Success', attemptCount: 2 });
      expect(engine.emit(tenant, { eventName: EVENT })).toMatchObject({ notifications: [] });
    });
  });

  it('closes its transport and starts nothing once closed', async () => {
    const { time, transport, engine, subscribe, emitOne, close: stop } = setUp();
    subscribe();
    transport.answer = () => ({ status: 500 });
    emitOne();
    await time.settle();
    await stop();
    expect(engine.pendingCount()).toBe(1);
    expect(transport.closed).toBe(true);
    await time.advance(3600 * SECOND);
    expect(transport.requests).toHaveLength(1);
  });
});
