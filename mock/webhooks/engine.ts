import type { Notification } from '../../spec/schemas/notifications.js';
import type { Clock } from '../clock.js';
import type { Change } from '../store/change.js';
import type { Store } from '../store/store.js';
import type { TenantState } from '../store/tenant-state.js';
import { fanOut, type EmitRequest, type Emission } from './emission.js';
import { holdNotificationBounds } from './pending-bound.js';
import { serialisePayload } from './payload.js';
import { firstAttempt, manualRetry, next } from './policy.js';
import { resumedAttempts } from './resumed.js';
import { recordAttempt } from './record.js';
import { deliveryRequest, originOf } from './request.js';
import { jobOf, TenantRuntime, type Job } from './runtime.js';
import { TenantScheduler, type SchedulerFactory } from './scheduler.js';
import { FairSlots, slotBounds, type DeliveryLoad } from './fair-slots.js';
import { HELD, loadWithHeld } from './held-attempts.js';
import type { Signer } from './signer.js';
import { laterIso, placeAttempt } from './timeline.js';
import { realTimers, type Timers } from './timers.js';
import type { AttemptOutcome, DeliveryRequest, Transport } from './transport.js';
import type { AttemptObserver, AttemptWatch } from './observer.js';
import { slotRest, type WebhookEngineOptions, type WebhookEngineParts } from './engine-options.js';

/**
 * The webhook model of the reference, made real (Events, point 4; States and transitions): each event fans out to
 * every matching subscription of its tenant as its own notification, delivered with the body's signature in
 * `X-HMAC-Signature`, stored with every attempt, retried on the schedule until Success or, when exhausted,
 * Failure. Retries follow each tenant's virtual clock: advancing it (`advance`) runs at once every retry that falls
 * due, each recorded at the tenant time it fell due (timeline.ts).
 *
 * It composes the policy (policy.ts), a scheduler per tenant (scheduler.ts), the injected transport and signer, and
 * the bookkeeping through the tenant's write seam (record.ts). Delivery runs concurrently: every due attempt starts
 * at once, bounded by `concurrency` over all tenants, by `perTenantConcurrency` per tenant and by
 * `perEndpointConcurrency` per receiver of a tenant, the tenants waiting for a slot served in turn (fair-slots.ts;
 * beyond a batch per receiver, held back: held-attempts.ts); a slow or hanging receiver costs its own attempts one
 * timeout each and delays no other tenant; one that cannot be reached rests its slot a while (`unreachablePauseMs`);
 * a tenant's starts may be paced (`perTenantRate`). A reset or an eviction drops the tenant's attempts still waiting.
 *
 * Ordering: there is NO ordering guarantee, not even per endpoint or per subscription. Notifications of one
 * endpoint are sent concurrently, a retry of an older event can arrive after a newer event, and a manual retry
 * re-sends an event at any time. Receivers order by `occurredAt`, drop duplicates by the event id, and read the
 * current state with the API (Events, point 5) instead of relying on arrival order.
 */
export class WebhookEngine {
  private readonly slots: FairSlots;
  private readonly runtimes = new Map<string, TenantRuntime>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly clock: Clock;
  private readonly transport: Transport;
  readonly signer: Signer;
  readonly timers: Timers;
  /** Told of each attempt as it goes out, and of its outcome (client checks: mock/client-checks/deliveries.ts). */
  observer: AttemptObserver | undefined;
  private readonly schedulers: SchedulerFactory<Job>;
  private readonly refresh: ((org: string) => Promise<unknown>) | undefined;
  /** Whether the schedules are not this process's own (given by the composition root: a replicated mock). */
  private readonly sharedSchedule: boolean;
  private eventCounter = 0;
  private readonly restAfter = (outcome?: AttemptOutcome) => slotRest(this.options, outcome);
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: WebhookEngineOptions,
    parts: WebhookEngineParts,
  ) {
    this.clock = parts.clock;
    this.transport = parts.transport;
    this.signer = parts.signer;
    this.timers = parts.timers ?? realTimers;
    this.schedulers = parts.schedulers ?? ((clock, timers, hooks) => new TenantScheduler<Job>(clock, timers, hooks));
    this.sharedSchedule = parts.schedulers !== undefined;
    this.refresh = parts.refresh;
    this.slots = new FairSlots(
      slotBounds(options.concurrency, options.perTenantConcurrency, options.perEndpointConcurrency),
      (org, origin) => this.roomFor(org, origin),
      this.timers,
      options.perTenantRate ? { rate: options.perTenantRate, clock: this.clock } : null,
    );
    store.onChange((change) => this.onChange(change));
    store.onDrop.push((org) => this.drop(org));
  }

  /** Emits a catalog event for a tenant: one notification per matching subscription. */
  emit(tenant: TenantState, request: EmitRequest): Emission | { error: 'EVENT_NOT_FOUND' } {
    const now = tenant.clock.now();
    const realNow = this.clock.now();
    const first = firstAttempt(now, this.options.retrySchedule);
    const counter = () => ++this.eventCounter;
    const emission = fanOut(tenant, request, { createdAt: now, firstDueAt: first.dueAt, sampleCounter: counter });
    if ('error' in emission) return emission;
    // One job for all of them: a job is never changed once queued.
    const job = jobOf(first, now, realNow);
    if (emission.notifications.length > 0) {
      const rt = this.runtime(tenant);
      // Due now, to a receiver whose batch is full: held at once, as `start` would on the next turn, without that turn in
      // the schedule's map and heap (most of a fan-out to silent receivers). A shared schedule lets a replica claim it.
      const holdNow = first.dueAt <= now && !this.sharedSchedule;
      for (const id of emission.notifications)
        if (!(holdNow && this.holdWhenFull(rt, id, job))) rt.scheduler.add(id, job);
      this.pin(rt);
    }
    // The ended ones' scheduled attempts are cancelled at once; their attempts under way decide nothing (`attempt`).
    const { maxPendingPerTenant, maxNotificationsPerTenant } = this.options;
    holdNotificationBounds(tenant, maxPendingPerTenant, maxNotificationsPerTenant, (ending) => {
      const rt = this.runtime(tenant);
      // All leave the schedule and the held attempts before any waiting for a slot is cancelled (and never starts):
      // each cancel releases the receiver's next held attempt, else the next ended one, started only to be cancelled.
      for (const id of ending) {
        rt.scheduler.cancel(id);
        this.dropHeld(rt, id);
      }
      for (const id of ending) this.slots.cancelKey(tenant.org, id);
    });
    return emission;
  }

  /**
   * Manual retry (policy.ts): in any state, also after the subscription was deleted; a `Manual` attempt now, the
   * automatic ones cancelled, one under way deciding nothing. Returns the notification (Pending), or undefined.
   */
  retry(tenant: TenantState, notificationId: string): Notification | undefined {
    const notification = tenant.notifications.get(notificationId);
    if (!notification) return undefined;
    const rt = this.runtime(tenant);
    const now = tenant.clock.now();
    const retry = manualRetry(
      {
        status: notification.status,
        generation: rt.generation(notificationId),
        subscribed: tenant.subscriptions.has(notification.subscriptionId),
      },
      now,
    );
    rt.setGeneration(notificationId, retry.attempt.generation);
    const pending: Notification = {
      ...notification,
      status: retry.status,
      failureReason: null,
      nextAttemptAt: retry.next,
      lastModifiedAt: laterIso(notification.lastModifiedAt, now),
    };
    tenant.commit('notification', notificationId, pending);
    this.dropHeld(rt, notificationId);
    this.start(rt, notificationId, jobOf(retry.attempt, now, this.clock.now()));
    rt.scheduler.cancel(notificationId);
    return pending;
  }

  /** Schedules a restored tenant's Pending notifications again (at `nextAttemptAt`, or now); returns how many. */
  resume(tenant: TenantState): number {
    let resumed = 0;
    const now = tenant.clock.now();
    const realNow = this.clock.now();
    for (const [id, planned] of resumedAttempts(tenant, now)) {
      this.enqueue(tenant, id, jobOf(planned, now, realNow));
      resumed++;
    }
    return resumed;
  }

  /** Advances a tenant's virtual clock and runs every attempt that falls due (see `runDue`). */
  async advance(tenant: TenantState, seconds: number): Promise<void> {
    // Through the write seam, so a persisted tenant keeps its time travel across restarts.
    tenant.commit('clock', 'offset', tenant.clock.offset + seconds * 1000);
    await this.runDue(tenant);
  }

  /**
   * Runs every due attempt of a tenant and waits for them and for the tenant's other attempts under way, again
   * and again, until nothing is due at the tenant's current time and no attempt is under way: a failed attempt
   * whose next retry is already due (after a clock jump) is retried within the same walk.
   */
  async runDue(tenant: TenantState): Promise<void> {
    // A schedule shared with other processes may hold attempts of a tenant this process never scheduled one of.
    const rt = this.runtimes.get(tenant.org) ?? (this.sharedSchedule ? this.runtime(tenant) : undefined);
    if (!rt || rt.tenant !== tenant || this.closed) return;
    await rt.scheduler.afterClockJump();
    while (rt.inflight.size > 0) {
      await Promise.race(rt.inflight);
      if (this.closed || this.runtimes.get(tenant.org) !== rt) return;
      await rt.scheduler.dispatch();
    }
  }

  /** Waits for every attempt under way and every queued dispatch (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The delivery slots' load: over all tenants, and per tenant with attempts in flight or waiting. */
  deliveryLoad(): DeliveryLoad {
    return loadWithHeld(this.slots, (org) => this.runtimes.get(org)?.held.size ?? 0, this.runtimes.keys());
  }

  /** Notifications still scheduled, over all tenants. */
  pendingCount(): number {
    let n = 0;
    for (const rt of this.runtimes.values()) n += rt.scheduler.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const rt of this.runtimes.values()) rt.scheduler.stop();
    await this.idle();
    await this.transport.close();
  }

  private onChange(change: Change): void {
    if (!change.event) return;
    const tenant = this.store.peek(change.org);
    if (!tenant) return;
    const { eventName, eventVersion, data } = change.event;
    this.emit(tenant, { eventName, data, project: true, ...(eventVersion !== undefined ? { eventVersion } : {}) });
  }

  /** The runtime of a tenant (a fresh one when the tenant was reset or evicted and seeded again). */
  private runtime(tenant: TenantState): TenantRuntime {
    let rt = this.runtimes.get(tenant.org);
    if (!rt || rt.tenant !== tenant) {
      rt?.scheduler.stop();
      const fresh: TenantRuntime = new TenantRuntime(
        tenant,
        this.schedulers(
          tenant.clock,
          this.timers,
          {
            live: () => this.live(fresh),
            start: (id, job) => this.start(fresh, id, job),
            changed: () => this.pin(fresh),
            track: (dispatched) => this.track(dispatched),
          },
          tenant.org,
        ),
      );
      if (this.closed) fresh.scheduler.stop();
      this.runtimes.set(tenant.org, fresh);
      rt = fresh;
    }
    return rt;
  }

  /** Holds an attempt (./held-attempts.ts) when a batch of the tenant's attempts waits at its receiver; says whether. */
  private holdWhenFull(rt: TenantRuntime, id: string, job: Job): boolean {
    const endpoint = rt.tenant.notifications.get(id)?.endpoint;
    const origin = endpoint === undefined ? undefined : originOf(endpoint);
    if (origin === undefined || this.room(rt.tenant.org, origin)) return false;
    rt.held.hold(origin, id, job);
    return true;
  }

  private room(org: string, origin: string): boolean {
    return this.slots.waitingIn(org, origin) < this.slots.bounds.perEndpoint;
  }

  /** A receiver's batch moved on (told by the slots once they are consistent): its held attempts come, as room allows. */
  private roomFor(org: string, origin: string): void {
    const rt = this.runtimes.get(org);
    if (!rt || rt.held.size === 0 || !this.live(rt)) return;
    rt.held.release(
      origin,
      (o) => this.room(org, o),
      (id, job) => this.start(rt, id, job),
    );
    this.pin(rt);
  }

  private dropHeld(rt: TenantRuntime, id: string): void {
    const endpoint = rt.held.size > 0 ? rt.tenant.notifications.get(id)?.endpoint : undefined;
    if (endpoint !== undefined) rt.held.drop(originOf(endpoint), id);
  }

  /** Whether a runtime still belongs to a live tenant. */
  private live(rt: TenantRuntime): boolean {
    return !this.closed && this.runtimes.get(rt.tenant.org) === rt && this.store.peek(rt.tenant.org) === rt.tenant;
  }

  /** Queues an automatic attempt in the tenant's scheduler. */
  private enqueue(tenant: TenantState, id: string, job: Job): void {
    this.runtime(tenant).scheduler.add(id, job);
  }

  /**
   * Makes an attempt another process scheduled and this one claimed (a replicated mock's shared schedule); resolves
   * once it has been made and recorded.
   */
  startClaimed(tenant: TenantState, id: string, job: Job): Promise<void> {
    if (this.closed) return Promise.resolve();
    // Never held back: a claim holds a lease of the shared schedule, and the poller claims only what can start.
    return this.start(this.runtime(tenant), id, job, false);
  }

  /** Starts an attempt, resolved once recorded; held back (./held-attempts.ts) while its receiver's batch is full. */
  private start(rt: TenantRuntime, id: string, job: Job, mayHold = true): Promise<void> {
    if (mayHold && this.holdWhenFull(rt, id, job)) {
      this.pin(rt);
      return HELD;
    }
    rt.begin(id);
    // One settled promise per attempt (attempts to silent receivers wait for slots by the thousand).
    const settle = () => {
      rt.inflight.delete(done);
      rt.end(id);
      this.pin(rt);
    };
    const done: Promise<void> = this.attempt(rt, id, job).then(settle, settle);
    rt.inflight.add(done);
    this.pin(rt);
    this.track(done);
    return done;
  }

  /** A tenant with attempts scheduled or under way is never evicted. */
  private pin(rt: TenantRuntime): void {
    if (this.store.peek(rt.tenant.org) !== rt.tenant || this.runtimes.get(rt.tenant.org) !== rt) return;
    this.store.pin(rt.tenant.org, rt.scheduler.size > 0 || rt.inflight.size > 0 || rt.held.size > 0);
  }

  private track<T>(promise: Promise<T>): void {
    const forget = () => {
      this.running.delete(p);
    };
    const p: Promise<void> = promise.then(forget, forget);
    this.running.add(p);
  }

  /** One delivery attempt: sign, send, record the attempt, move the notification on by the policy. */
  private async attempt(rt: TenantRuntime, id: string, job: Job): Promise<void> {
    const tenant = rt.tenant;
    const notification = tenant.notifications.get(id);
    if (!notification) return;
    // Signed once the slot is taken: an attempt waiting for one holds no body (notifications to silent receivers can
    // queue by the thousand), and one whose notification ended meanwhile is dropped (`cancelKey`, `emit`).
    const outcome = await this.slots.run(
      tenant.org,
      originOf(notification.endpoint),
      async (waited) => {
        if (waited && this.refresh) {
          // A reset seen only by another process while this attempt waited: catch up, and send nothing if it was.
          await this.refresh(tenant.org).catch(() => undefined);
          if (!this.live(rt)) return undefined;
        }
        const body = serialisePayload(notification.payload);
        const request = deliveryRequest(notification, body, this.signer.sign(body, tenant.webhookSecret));
        const seen = this.observer?.(tenant, notification, request);
        const sent = await this.transport.send(request);
        seen?.(sent);
        return sent;
      },
      id,
      this.restAfter,
    );
    // Undefined: the tenant was reset or evicted, or the notification ended, while the attempt waited for its slot;
    // nothing was sent.
    if (!outcome) return;
    const current = tenant.notifications.get(id);
    if (!current || this.store.peek(tenant.org) !== tenant || this.runtimes.get(tenant.org) !== rt) return;

    const placed = placeAttempt(job, outcome, tenant.clock.now());
    const view = {
      status: current.status,
      generation: rt.generation(id),
      subscribed: tenant.subscriptions.has(current.subscriptionId),
    };
    // A notification the Pending bound ended (pending-bound.ts) is not moved on by an attempt that was already under
    // way: recorded, deciding nothing, as an attempt of an older generation; a manual retry clears the reason.
    const transition = current.failureReason
      ? ({ decided: false } as const)
      : next(view, job, outcome, this.options.retrySchedule);
    recordAttempt(tenant, current, job, outcome, placed, transition, this.options.maxAttemptsPerNotification);
    if (transition.decided && transition.next)
      this.enqueue(tenant, id, jobOf(transition.next, placed.endedAt, this.clock.now()));
  }

  /** A request delivering no notification (client checks), through the slots and transport; never stored nor retried. */
  sendExtra(tenant: TenantState, request: DeliveryRequest, sending: () => AttemptWatch | null): void {
    const live = () => !this.closed && this.store.peek(tenant.org) === tenant;
    if (!live()) return;
    this.track(
      this.slots.run(tenant.org, originOf(request.endpoint), async () => {
        const seen = live() ? sending() : null;
        if (seen) seen(await this.transport.send(request));
      }),
    );
  }

  private drop(org: string): void {
    // Its attempts waiting for a slot never start: nothing of a reset tenant reaches a receiver after the answer.
    this.slots.cancel(org);
    const rt = this.runtimes.get(org);
    if (!rt) return;
    rt.scheduler.discard();
    this.runtimes.delete(org);
  }
}
