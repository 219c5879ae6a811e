/** The engine's delivery slots shared fairly by tenants, and dropped for a reset or evicted tenant (no sockets). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import { Store } from '../../store/store.js';
import type { TenantState } from '../../store/tenant-state.js';
import { WebhookEngine } from '../engine.js';
import { hmacSigner } from '../signer.js';
import { FakeTime } from './fake-time.js';
import { FakeTransport, type Answer } from './fake-transport.js';

const EVENT = 'Warehouse.Shipment.Shipped';

/**
 * An engine with 4 slots (2 per tenant, 1 per receiver of a tenant) whose transport holds every request to a
 * `silent` host until the test releases it, refuses the connection to a `closed` host, answers 500 from a `failing`
 * host, and 200 from any other at once.
 */
function setUp(maxPendingPerTenant?: number, unreachablePauseMs?: number) {
  const time = new FakeTime();
  const transport = new FakeTransport(time);
  const held: (() => void)[] = [];
  transport.answer = (request) =>
    request.endpoint.includes('silent')
      ? new Promise<Answer>((resolve) => held.push(() => resolve({ error: 'Timeout' })))
      : request.endpoint.includes('closed')
        ? { error: 'ConnectionError' }
        : { status: request.endpoint.includes('failing') ? 500 : 200 };
  const store = new Store({ seed: DEFAULT_SEED, skus: 5, maxTenants: 10, webhookKey: 'fair-test', clock: time });
  const engine = new WebhookEngine(
    store,
    {
      retrySchedule: [0],
      concurrency: 4,
      perTenantConcurrency: 2,
      perEndpointConcurrency: 1,
      maxPendingPerTenant,
      unreachablePauseMs,
    },
    { clock: time, transport, signer: hmacSigner, timers: time },
  );
  let subscriptions = 0;
  const subscribe = (tenant: TenantState, endpoint: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const id = `sub_${tenant.org}_${++subscriptions}`;
      tenant.commit('subscription', id, {
        id,
        endpoint,
        eventName: EVENT,
        eventVersion: 1,
        createdAt: tenant.nowIso(),
      });
    }
  };
  const emit = (tenant: TenantState) => {
    const emission = engine.emit(tenant, { eventName: EVENT });
    if ('error' in emission) throw new Error(emission.error);
    return emission.notifications;
  };
  const sentTo = (host: string) => transport.requests.filter((r) => r.endpoint.includes(host)).length;
  const release = () => {
    for (const fn of held.splice(0)) fn();
  };
  return { time, transport, store, engine, subscribe, emit, sentTo, release };
}

describe('fair delivery over tenants', () => {
  it('rests the slot of an attempt that reached no receiver: refused attempts are bounded per pause, answers are not', async () => {
    const { time, store, subscribe, emit, sentTo } = setUp(undefined, 100);
    const noisy = store.tenant('noisy');
    subscribe(noisy, 'http://closed-a/hook', 10);
    subscribe(noisy, 'http://failing-b/hook', 10);
    emit(noisy);
    await time.settle();
    // One slot per receiver: the closed one's first attempt failed at once and its slot rests; the answering one
    // (500, an HTTP answer) went through all ten at once.
    expect(sentTo('closed-a')).toBe(1);
    expect(sentTo('failing-b')).toBe(10);
    await time.advance(99);
    expect(sentTo('closed-a')).toBe(1);
    await time.advance(1);
    expect(sentTo('closed-a')).toBe(2);
    await time.advance(800);
    expect(sentTo('closed-a')).toBe(10);
    // Without a pause, the same refused attempts go out back to back.
    const quick = setUp(undefined, 0);
    quick.subscribe(quick.store.tenant('noisy'), 'http://closed-a/hook', 10);
    quick.emit(quick.store.tenant('noisy'));
    await quick.time.settle();
    expect(quick.sentTo('closed-a')).toBe(10);
  });

  it('drops the waiting attempts of notifications the Pending bound ended: what waits stays within the bound', async () => {
    const { time, store, engine, subscribe, emit, sentTo, release } = setUp(5);
    const noisy = store.tenant('noisy');
    subscribe(noisy, 'http://silent-a/hook', 4);
    // One event at a time, each one's attempts waiting for a slot before the next event ends the oldest notifications.
    for (let i = 0; i < 30; i++) {
      emit(noisy);
      await time.settle();
    }
    // 120 notifications made, 5 Pending kept: 1 attempt in flight (one receiver, one slot; its notification may have
    // ended since), and waiting only the attempts of the 5 Pending ones (119 waited before ended ones were dropped).
    const load = engine.deliveryLoad().total;
    expect(load.active).toBe(1);
    expect(load.waiting).toBeLessThanOrEqual(5);
    release();
    await time.settle();
    release();
    await time.settle();
    // Only attempts of notifications still Pending were ever sent after the first.
    expect(sentTo('silent-a')).toBeLessThanOrEqual(7);
  });

  it("gives a tenant whose receivers never answer only its share: another tenant's event is delivered at once", async () => {
    const { time, transport, store, engine, subscribe, emit, sentTo, release } = setUp();
    const noisy = store.tenant('noisy');
    const quiet = store.tenant('quiet');
    // Six silent receivers (one origin each), more than the 4 slots in all.
    for (let r = 0; r < 6; r++) subscribe(noisy, `https://silent-${r}.example/hooks`, 5);
    subscribe(quiet, 'https://quiet.example/hooks', 1);
    for (let i = 0; i < 4; i++) emit(noisy);
    await time.settle();
    // 120 notifications due: the noisy tenant holds 2 slots, the rest of its attempts wait for its own.
    expect(sentTo('silent')).toBe(2);
    expect(engine.deliveryLoad().total).toEqual({ active: 2, waiting: 118 });

    const [id] = emit(quiet);
    await time.settle();
    expect(sentTo('quiet')).toBe(1);
    expect(quiet.notifications.get(id!)?.status).toBe('Success');
    // ...while the silent attempts still hold their slots.
    expect(sentTo('silent')).toBe(2);

    // Released one round at a time, the noisy tenant goes on with 2 at a time over its receivers in turn.
    release();
    await time.settle();
    expect(sentTo('silent')).toBe(4);
    // Its receivers in turn: the two freed slots go to receivers that had none, not back to the first two.
    expect(
      transport.requests.filter((r) => r.endpoint.includes('silent')).map((r) => new URL(r.endpoint).host),
    ).toEqual(['silent-0.example', 'silent-1.example', 'silent-2.example', 'silent-3.example']);
    store.reset('noisy');
    release();
    await time.settle();
    expect(sentTo('silent')).toBe(4);
    await engine.close();
  });

  it.each([
    ['a reset', (store: Store) => store.reset('noisy')],
    ['a reset of every tenant', (store: Store) => store.resetAll()],
    ['an eviction', (store: Store) => store.reset('noisy', 'evict')],
  ])('drops the attempts of a tenant still waiting for a slot at %s: nothing more is sent', async (_what, drop) => {
    const { time, store, engine, subscribe, emit, sentTo, release } = setUp();
    const noisy = store.tenant('noisy');
    subscribe(noisy, 'https://silent-a.example/hooks', 10);
    subscribe(noisy, 'https://silent-b.example/hooks', 10);
    emit(noisy);
    await time.settle();
    expect(sentTo('silent')).toBe(2);
    drop(store);
    expect(engine.deliveryLoad().total).toEqual({ active: 2, waiting: 0 });
    release();
    await time.settle();
    await engine.idle();
    // The two under way ended; none of the 18 waiting ever started.
    expect(sentTo('silent')).toBe(2);
    expect(engine.deliveryLoad().total).toEqual({ active: 0, waiting: 0 });
    await engine.close();
  });
});

describe('attempts held back beyond a batch per receiver', () => {
  it('delivers a burst to one healthy receiver in full, a batch in the slots and the rest held, in due order', async () => {
    const { time, store, engine, subscribe, emit, sentTo, transport } = setUp();
    const tenant = store.tenant('burst');
    subscribe(tenant, 'https://healthy.example/hooks', 10);
    const ids = [...emit(tenant), ...emit(tenant), ...emit(tenant)];
    // Before the first turn: at most one attempt waits in the slots for the receiver, the other 29 are held.
    await time.settle();
    expect(sentTo('healthy')).toBe(30);
    expect(ids.map((id) => tenant.notifications.get(id)?.status)).toEqual(Array(30).fill('Success'));
    // In the order they fell due.
    expect(transport.requests.map((r) => r.headers['x-notification-id'])).toEqual(ids);
    expect(engine.deliveryLoad().total).toEqual({ active: 0, waiting: 0 });
  });

  it('counts held attempts as waiting, and drops those of notifications the Pending bound ended', async () => {
    const { time, store, engine, subscribe, emit, release } = setUp(5);
    const tenant = store.tenant('held');
    subscribe(tenant, 'https://silent-held.example/hooks', 4);
    emit(tenant);
    await time.settle();
    // One attempt under way (1 per receiver), one waiting in the slots, two held.
    expect(engine.deliveryLoad().total).toEqual({ active: 1, waiting: 3 });
    emit(tenant);
    await time.settle();
    // 8 notifications, bound 5: the 3 oldest ended; what waits (slots and held) is within the bound.
    expect([...tenant.pendingNotifications]).toHaveLength(5);
    expect(engine.deliveryLoad().total.waiting).toBeLessThanOrEqual(5);
    release();
    await time.settle();
    release();
    await time.settle();
  });
});
