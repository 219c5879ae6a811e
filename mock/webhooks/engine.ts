import type { DeliveryAttempt, Notification } from '../../spec/schemas/notifications.js';
import { findEvent, findEventVersion, latestVersion } from '../../fixtures/events.js';
import type { Clock } from '../clock.js';
import type { FaultName } from '../faults.js';
import type { Change } from '../store/change.js';
import type { Store } from '../store/store.js';
import type { TenantState } from '../store/tenant-state.js';
import { Deliverer, type AttemptOutcome } from './delivery.js';
import { buildPayload, projectData, serialisePayload } from './payload.js';
import { sampleData } from './sample-data.js';
import { KeyedSemaphore, Semaphore } from './semaphore.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, sign } from './signature.js';

/** Settings of the delivery engine. */
export interface WebhookEngineOptions {
  /** Delay before each automatic attempt, seconds, each relative to the previous attempt's due time (first: to creation). */
  readonly retrySchedule: readonly number[];
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
  /** Most attempts in flight at once, over all tenants and receivers. */
  readonly concurrency: number;
  /**
   * Most attempts in flight at once to one receiver (one origin: scheme, host and port); default a quarter of
   * `concurrency` (at least 1), so a hanging receiver never holds every slot.
   */
  readonly perEndpointConcurrency?: number;
  readonly blockPrivateEndpoints: boolean;
  readonly faults: ReadonlySet<FaultName>;
  /**
   * Most notifications a tenant keeps; beyond it the oldest finished ones (Success or Failure) are forgotten with
   * their attempts, so a long-running mock under webhook traffic stays bounded. Pending ones are always kept.
   */
  readonly maxNotificationsPerTenant?: number;
}

/** An event to emit: a catalog name, optionally one version, optionally the data. */
export interface EmitRequest {
  readonly eventName: string;
  readonly eventVersion?: number;
  readonly data?: Record<string, unknown>;
  /** Project `data` onto each subscribed version's schema (changes carry a superset of every version's fields). */
  readonly project?: boolean;
}

/** What an emission produced. */
export interface Emission {
  readonly eventId: string;
  readonly notifications: string[];
}

/** One attempt to make: queued in a tenant's schedule (automatic) or started at once (manual). */
interface Job {
  readonly trigger: 'Scheduled' | 'Manual';
  /** Tenant (virtual) time the attempt is due. */
  readonly dueAt: number;
  /** Automatic attempts made before this one. */
  readonly auto: number;
  /** Tenant time at which the job was queued, on the timeline of the attempts (see `attempt`). */
  readonly queuedAt: number;
  /** Real time at which the job was queued. */
  readonly queuedAtReal: number;
  /** The notification's generation when the job was made; a manual retry starts a new one. */
  readonly generation: number;
}

/** Delivery bookkeeping of one tenant. */
class TenantRuntime {
  /** Automatic attempts waiting for their due time, by notification id (at most one each). */
  readonly schedule = new Map<string, Job>();
  /** Attempts under way. */
  readonly inflight = new Set<Promise<void>>();
  /** Attempts under way per notification id. */
  readonly busy = new Map<string, number>();
  /** Notifications retried manually, by id: their current generation (absent: 0). */
  readonly generations = new Map<string, number>();
  timer: NodeJS.Timeout | null = null;
  /** Tenant time the timer is set for (Infinity: no timer). */
  timerAt = Infinity;
  /** A dispatch is queued on `setImmediate`. */
  kicked = false;

  constructor(readonly tenant: TenantState) {}
}

/**
 * The webhook model of the reference, made real (Events, point 4; States and transitions): each event fans out to
 * every matching subscription of its tenant as its own notification, delivered over HTTP with the body's HMAC-SHA256
 * in `X-HMAC-Signature`, stored with every attempt, retried on the schedule until Success or, when exhausted,
 * Failure. Retries follow each tenant's virtual clock: advancing it runs every retry that falls due.
 *
 * Delivery runs concurrently: every due attempt starts at once, bounded by `concurrency` over all receivers and by
 * `perEndpointConcurrency` per receiver; an attempt waits only for a free slot, never for another receiver's
 * answer, so a slow or hanging receiver costs its own attempts one timeout each and delays no one else.
 *
 * Ordering: there is NO ordering guarantee, not even per endpoint or per subscription. Notifications of one
 * endpoint are sent concurrently, a retry of an older event can arrive after a newer event, and a manual retry
 * re-sends an event at any time. Receivers order by `occurredAt`, drop duplicates by the event id, and read the
 * current state with the API (Events, point 5) instead of relying on arrival order.
 *
 * Timeline of the attempt records: an attempt that runs when it falls due is recorded at the time it ran. When the
 * virtual clock jumps (`advance`), the attempts that fall due in the jump run straight away, one after the other,
 * but each is recorded at the tenant time it fell due, so the history shows the schedule as it would have unfolded:
 * attempt n+1 starts at attempt n's due time plus the next delay.
 */
export class WebhookEngine {
  private readonly deliverer = new Deliverer();
  private readonly slots: KeyedSemaphore;
  private readonly runtimes = new Map<string, TenantRuntime>();
  private readonly running = new Set<Promise<unknown>>();
  private eventCounter = 0;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: WebhookEngineOptions,
    private readonly realClock: Clock,
  ) {
    const concurrency = Math.max(1, Math.floor(options.concurrency));
    const perEndpoint = Math.max(1, Math.min(concurrency, Math.floor(options.perEndpointConcurrency ?? Math.ceil(concurrency / 4))));
    this.slots = new KeyedSemaphore(new Semaphore(concurrency), perEndpoint);
    store.onChange((change) => this.onChange(change));
    store.onDrop.push((org) => this.drop(org));
  }

  /** Emits a catalog event for a tenant: one notification per matching subscription. */
  emit(tenant: TenantState, request: EmitRequest): Emission | { error: 'EVENT_NOT_FOUND' } {
    const event = findEvent(request.eventName);
    if (!event || (request.eventVersion !== undefined && !findEventVersion(request.eventName, request.eventVersion))) return { error: 'EVENT_NOT_FOUND' };
    const eventId = tenant.ids.next('evt');
    const now = tenant.clock.now();
    const realNow = this.realClock.now();
    const occurredAt = new Date(now).toISOString();
    const sampled = request.eventVersion !== undefined ? findEventVersion(event.eventName, request.eventVersion) : latestVersion(event);
    const base = request.data ?? sampleData((sampled ?? latestVersion(event)).data, tenant, ++this.eventCounter);
    const dueAt = now + (this.options.retrySchedule[0] ?? 0) * 1000;
    const notifications: string[] = [];
    for (const subscription of tenant.subscriptions) {
      if (subscription.eventName !== event.eventName) continue;
      if (request.eventVersion !== undefined && subscription.eventVersion !== request.eventVersion) continue;
      const version = findEventVersion(event.eventName, subscription.eventVersion);
      if (!version) continue;
      const id = tenant.ids.next('ntf');
      const notification: Notification = {
        id,
        status: 'Pending',
        eventId,
        eventName: event.eventName,
        eventVersion: subscription.eventVersion,
        subscriptionId: subscription.id,
        endpoint: subscription.endpoint,
        attemptCount: 0,
        nextAttemptAt: new Date(dueAt).toISOString(),
        lastAttemptAt: null,
        createdAt: occurredAt,
        lastModifiedAt: occurredAt,
        payload: buildPayload(eventId, event.eventName, subscription.eventVersion, occurredAt, tenant.org, request.data && !request.project ? { ...request.data } : projectData(version, base)),
      };
      tenant.commit('notification', id, notification);
      notifications.push(id);
      this.enqueue(tenant, id, { trigger: 'Scheduled', dueAt, auto: 0, queuedAt: now, queuedAtReal: realNow, generation: 0 });
    }
    this.trimHistory(tenant);
    return { eventId, notifications };
  }

  /** Forgets the oldest finished notifications beyond the per-tenant bound (down to 90% of it, amortised). */
  private trimHistory(tenant: TenantState): void {
    const max = this.options.maxNotificationsPerTenant;
    if (max === undefined || tenant.notifications.size <= max) return;
    const target = Math.floor(max * 0.9);
    const drop: string[] = [];
    let size = tenant.notifications.size;
    for (const n of tenant.notifications.values()) {
      if (size <= target) break;
      if (n.status === 'Pending') continue;
      drop.push(n.id);
      size--;
    }
    for (const id of drop) tenant.commit('notification', id, null);
  }

  /**
   * Manual retry (DESIGN): allowed in any state; a re-delivery now, recorded as a `Manual` attempt. Automatic
   * attempts still scheduled are cancelled, and an attempt still under way no longer decides the state; the
   * notification is Pending while the manual attempt runs and ends Success or Failure by that attempt.
   * Returns the notification as it stands (Pending), or undefined for an unknown id.
   */
  retry(tenant: TenantState, notificationId: string): Notification | undefined {
    const notification = tenant.notifications.get(notificationId);
    if (!notification) return undefined;
    const rt = this.runtime(tenant);
    rt.schedule.delete(notificationId);
    const generation = (rt.generations.get(notificationId) ?? 0) + 1;
    rt.generations.set(notificationId, generation);
    const now = tenant.clock.now();
    const pending: Notification = { ...notification, status: 'Pending', nextAttemptAt: null, lastModifiedAt: laterIso(notification.lastModifiedAt, now) };
    tenant.commit('notification', notificationId, pending);
    this.start(rt, notificationId, { trigger: 'Manual', dueAt: now, auto: 0, queuedAt: now, queuedAtReal: this.realClock.now(), generation });
    this.rearm(rt);
    return pending;
  }

  /**
   * Resumes the deliveries of a restored tenant: every Pending notification is scheduled again, at its
   * `nextAttemptAt` (or now, when an attempt was under way at shutdown), continuing its schedule.
   * Returns how many were resumed.
   */
  resume(tenant: TenantState): number {
    let resumed = 0;
    const now = tenant.clock.now();
    const realNow = this.realClock.now();
    for (const notification of tenant.notifications) {
      if (notification.status !== 'Pending') continue;
      let auto = 0;
      for (const attempt of tenant.attemptsOf(notification.id)) if (attempt.trigger === 'Scheduled') auto++;
      const dueAt = notification.nextAttemptAt ? Date.parse(notification.nextAttemptAt) : now;
      this.enqueue(tenant, notification.id, { trigger: 'Scheduled', dueAt, auto, queuedAt: now, queuedAtReal: realNow, generation: 0 });
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
    const rt = this.runtimes.get(tenant.org);
    if (!rt || rt.tenant !== tenant) return;
    // The clock may have jumped: the timer's real-time delay is stale; dispatch sets it again.
    this.clearTimer(rt);
    for (;;) {
      if (this.closed || this.runtimes.get(tenant.org) !== rt) return;
      this.dispatch(rt);
      if (rt.inflight.size === 0) return;
      await Promise.race(rt.inflight);
    }
  }

  /** Waits for every attempt under way and every queued dispatch (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Notifications still scheduled, over all tenants. */
  pendingCount(): number {
    let n = 0;
    for (const rt of this.runtimes.values()) n += rt.schedule.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const rt of this.runtimes.values()) this.clearTimer(rt);
    await this.idle();
    await this.deliverer.close();
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
      if (rt) this.clearTimer(rt);
      rt = new TenantRuntime(tenant);
      this.runtimes.set(tenant.org, rt);
    }
    return rt;
  }

  /** Whether a runtime still belongs to a live tenant. */
  private live(rt: TenantRuntime): boolean {
    return !this.closed && this.runtimes.get(rt.tenant.org) === rt && this.store.peek(rt.tenant.org) === rt.tenant;
  }

  /** Queues an automatic attempt: started on the next turn of the event loop when due, else by the timer. */
  private enqueue(tenant: TenantState, id: string, job: Job): void {
    const rt = this.runtime(tenant);
    rt.schedule.set(id, job);
    this.pin(rt);
    if (job.dueAt <= tenant.clock.now()) this.kick(rt);
    else if (job.dueAt < rt.timerAt) this.setTimer(rt, job.dueAt);
  }

  /**
   * Dispatches the tenant's due attempts on the next turn of the event loop: after the emitting request has been
   * answered, and once for every notification emitted in the same turn.
   */
  private kick(rt: TenantRuntime): void {
    if (rt.kicked || this.closed) return;
    rt.kicked = true;
    this.track(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          rt.kicked = false;
          if (this.live(rt)) this.dispatch(rt);
          resolve();
        }),
      ),
    );
  }

  /** Starts every due attempt of a tenant without waiting for any, then sets the timer to the next due one. */
  private dispatch(rt: TenantRuntime): void {
    if (!this.live(rt)) return;
    const now = rt.tenant.clock.now();
    for (const [id, job] of rt.schedule) {
      if (job.dueAt > now) continue;
      rt.schedule.delete(id);
      this.start(rt, id, job);
    }
    this.rearm(rt);
  }

  /** Starts one attempt and tracks it until it is recorded. */
  private start(rt: TenantRuntime, id: string, job: Job): void {
    rt.busy.set(id, (rt.busy.get(id) ?? 0) + 1);
    const done = this.attempt(rt, id, job)
      .catch(() => undefined)
      .finally(() => {
        rt.inflight.delete(done);
        const left = (rt.busy.get(id) ?? 1) - 1;
        if (left > 0) rt.busy.set(id, left);
        else {
          rt.busy.delete(id);
          // Nothing of this notification is under way: no job of an older generation can come back.
          rt.generations.delete(id);
        }
        this.pin(rt);
      });
    rt.inflight.add(done);
    this.pin(rt);
    this.track(done);
  }

  /** Sets the timer to the earliest scheduled attempt (none when nothing is scheduled). */
  private rearm(rt: TenantRuntime): void {
    let earliest = Infinity;
    for (const job of rt.schedule.values()) if (job.dueAt < earliest) earliest = job.dueAt;
    if (earliest === Infinity) this.clearTimer(rt);
    else if (earliest !== rt.timerAt || !rt.timer) this.setTimer(rt, earliest);
    this.pin(rt);
  }

  /** The timer runs in real time: the virtual clock moves at real speed between jumps. */
  private setTimer(rt: TenantRuntime, dueAt: number): void {
    this.clearTimer(rt);
    if (this.closed) return;
    const delay = Math.max(0, Math.min(dueAt - rt.tenant.clock.now(), 2 ** 31 - 1));
    const timer = setTimeout(() => {
      if (rt.timer !== timer) return;
      rt.timer = null;
      rt.timerAt = Infinity;
      this.dispatch(rt);
    }, delay);
    timer.unref();
    rt.timer = timer;
    rt.timerAt = dueAt;
  }

  private clearTimer(rt: TenantRuntime): void {
    if (rt.timer) clearTimeout(rt.timer);
    rt.timer = null;
    rt.timerAt = Infinity;
  }

  /** A tenant with attempts scheduled or under way is never evicted. */
  private pin(rt: TenantRuntime): void {
    if (this.store.peek(rt.tenant.org) !== rt.tenant || this.runtimes.get(rt.tenant.org) !== rt) return;
    this.store.pin(rt.tenant.org, rt.schedule.size > 0 || rt.inflight.size > 0);
  }

  private track<T>(promise: Promise<T>): void {
    const p = promise.catch(() => undefined).finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /**
   * One delivery attempt: send, record the attempt, move the notification on. Attempts are numbered and stored in
   * the order they end (`number` = the notification's `attemptCount` after it), so when a manual retry overlaps
   * an automatic attempt still under way, the one that ends first has the lower number; `startedAt` tells which
   * was sent first.
   */
  private async attempt(rt: TenantRuntime, id: string, job: Job): Promise<void> {
    const tenant = rt.tenant;
    const notification = tenant.notifications.get(id);
    if (!notification) return;
    const raw = serialisePayload(notification.payload);
    const faults = this.options.faults;
    let signature = sign(raw, tenant.webhookSecret);
    let body = raw;
    if (faults.has('signature-uppercase-hex')) signature = signature.toUpperCase();
    if (faults.has('signature-reserialised')) body = JSON.stringify(notification.payload, null, 2);
    const outcome: AttemptOutcome = await this.slots.run(originOf(notification.endpoint), () =>
      this.deliverer.send(
        {
          endpoint: notification.endpoint,
          body,
          timeoutMs: this.options.timeoutMs,
          blockPrivate: this.options.blockPrivateEndpoints,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'opsapi-mock-webhooks/1',
            [SIGNATURE_HEADER.toLowerCase()]: signature,
            [EVENT_ID_HEADER.toLowerCase()]: notification.eventId,
            'x-event-name': notification.eventName,
            'x-event-version': String(notification.eventVersion),
            'x-notification-id': notification.id,
          },
        },
        () => this.realClock.now(),
      ),
    );
    const current = tenant.notifications.get(id);
    if (!current || this.store.peek(tenant.org) !== tenant || this.runtimes.get(tenant.org) !== rt) return;

    // Placing the attempt on the tenant's timeline: it started when it was queued plus the real time that passed
    // until it was sent (slot wait included), but never before it was due; a clock jump in between therefore
    // records it at its due time. It never ends after the tenant's current time.
    const durationMs = Math.max(0, Math.round(outcome.endedAtMs - outcome.startedAtMs));
    const now = tenant.clock.now();
    let startedAt = Math.max(job.dueAt, job.queuedAt + Math.max(0, outcome.startedAtMs - job.queuedAtReal));
    let endedAt = startedAt + durationMs;
    if (endedAt > now) {
      endedAt = now;
      startedAt = now - durationMs;
    }
    const number = current.attemptCount + 1;
    const attemptId = tenant.ids.next('att');
    const attempt: DeliveryAttempt = {
      id: attemptId,
      notificationId: id,
      number,
      trigger: job.trigger,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      durationMs,
      responseStatus: outcome.responseStatus,
      responseBodyExcerpt: outcome.responseBodyExcerpt,
      errorKind: outcome.errorKind,
      success: outcome.success,
    };
    tenant.commit('attempt', `${id}/${attemptId}`, attempt);

    // Only the attempt of the notification's current generation decides its state; an automatic attempt that was
    // under way when a manual retry started is recorded but changes nothing else.
    const decides = (rt.generations.get(id) ?? 0) === job.generation;
    let status = current.status;
    let nextAttemptAt = current.nextAttemptAt;
    let next: Job | null = null;
    if (decides) {
      nextAttemptAt = null;
      if (outcome.success) status = 'Success';
      else if (job.trigger === 'Manual') status = 'Failure';
      else {
        const made = job.auto + 1;
        const delay = this.options.retrySchedule[made];
        if (delay === undefined) status = 'Failure';
        else {
          status = 'Pending';
          const dueAt = job.dueAt + delay * 1000;
          nextAttemptAt = new Date(dueAt).toISOString();
          next = { trigger: 'Scheduled', dueAt, auto: made, queuedAt: endedAt, queuedAtReal: this.realClock.now(), generation: job.generation };
        }
      }
    }
    tenant.commit('notification', id, {
      ...current,
      status,
      attemptCount: number,
      lastAttemptAt: current.lastAttemptAt && Date.parse(current.lastAttemptAt) > startedAt ? current.lastAttemptAt : attempt.startedAt,
      nextAttemptAt,
      lastModifiedAt: laterIso(current.lastModifiedAt, endedAt),
    });
    if (next) this.enqueue(tenant, id, next);
  }

  private drop(org: string): void {
    const rt = this.runtimes.get(org);
    if (!rt) return;
    this.clearTimer(rt);
    rt.schedule.clear();
    this.runtimes.delete(org);
  }
}

/** The key of a receiver for the per-endpoint bound: its origin. */
function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}

/** The later of an ISO instant and an epoch-ms instant, as ISO. */
function laterIso(isoText: string, ms: number): string {
  return Date.parse(isoText) >= ms ? isoText : new Date(ms).toISOString();
}
