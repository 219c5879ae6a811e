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
import { Semaphore } from './semaphore.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, sign } from './signature.js';

/** Settings of the delivery engine. */
export interface WebhookEngineOptions {
  /** Delay before each automatic attempt, seconds, each relative to the previous attempt's due time (first: to creation). */
  readonly retrySchedule: readonly number[];
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly blockPrivateEndpoints: boolean;
  readonly faults: ReadonlySet<FaultName>;
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

interface Scheduled {
  dueAt: number;
  /** Automatic attempts made so far. */
  auto: number;
}

/**
 * The webhook model of the reference, made real (Events, point 4; States and transitions): each event fans out to
 * every matching subscription of its tenant as its own notification, delivered over HTTP with the body's HMAC-SHA256
 * in `X-HMAC-Signature`, stored with every attempt, retried on the schedule until Success or, when exhausted,
 * Failure. Retries follow each tenant's virtual clock: advancing it runs every retry that falls due.
 */
export class WebhookEngine {
  private readonly deliverer = new Deliverer();
  private readonly semaphore: Semaphore;
  private readonly schedules = new Map<string, Map<string, Scheduled>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private eventCounter = 0;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: WebhookEngineOptions,
    private readonly realClock: Clock,
  ) {
    this.semaphore = new Semaphore(options.concurrency);
    store.onChange((change) => this.onChange(change));
    store.onDrop.push((org) => this.drop(org));
  }

  /** Emits a catalog event for a tenant: one notification per matching subscription. */
  emit(tenant: TenantState, request: EmitRequest): Emission | { error: 'EVENT_NOT_FOUND' } {
    const event = findEvent(request.eventName);
    if (!event || (request.eventVersion !== undefined && !findEventVersion(request.eventName, request.eventVersion))) return { error: 'EVENT_NOT_FOUND' };
    const eventId = tenant.ids.next('evt');
    const occurredAt = tenant.nowIso();
    const sampled = request.eventVersion !== undefined ? findEventVersion(event.eventName, request.eventVersion) : latestVersion(event);
    const base = request.data ?? sampleData((sampled ?? latestVersion(event)).data, tenant, ++this.eventCounter);
    const notifications: string[] = [];
    for (const subscription of tenant.subscriptions) {
      if (subscription.eventName !== event.eventName) continue;
      if (request.eventVersion !== undefined && subscription.eventVersion !== request.eventVersion) continue;
      const version = findEventVersion(event.eventName, subscription.eventVersion);
      if (!version) continue;
      const id = tenant.ids.next('ntf');
      const now = tenant.clock.now();
      const dueAt = now + (this.options.retrySchedule[0] ?? 0) * 1000;
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
      this.schedule(tenant, id, { dueAt, auto: 0 });
    }
    return { eventId, notifications };
  }

  /**
   * Manual retry (DESIGN): allowed in any state; a re-delivery now, recorded as a `Manual` attempt. Automatic
   * attempts still scheduled are cancelled; the notification is Pending while it runs and ends Success or Failure
   * by that attempt. Returns the notification as it stands (Pending), or undefined for an unknown id.
   */
  retry(tenant: TenantState, notificationId: string): Notification | undefined {
    const notification = tenant.notifications.get(notificationId);
    if (!notification) return undefined;
    this.schedules.get(tenant.org)?.delete(notificationId);
    const pending: Notification = { ...notification, status: 'Pending', nextAttemptAt: null, lastModifiedAt: tenant.nowIso() };
    tenant.commit('notification', notificationId, pending);
    this.track(this.attempt(tenant, notificationId, 'Manual', null));
    return pending;
  }

  /**
   * Resumes the deliveries of a restored tenant: every Pending notification is scheduled again, at its
   * `nextAttemptAt` (or now, when an attempt was under way at shutdown), continuing its schedule.
   * Returns how many were resumed.
   */
  resume(tenant: TenantState): number {
    let resumed = 0;
    for (const notification of tenant.notifications) {
      if (notification.status !== 'Pending') continue;
      let auto = 0;
      for (const attempt of tenant.attemptsOf(notification.id)) if (attempt.trigger === 'Scheduled') auto++;
      const dueAt = notification.nextAttemptAt ? Date.parse(notification.nextAttemptAt) : tenant.clock.now();
      this.schedule(tenant, notification.id, { dueAt, auto });
      resumed++;
    }
    return resumed;
  }

  /** Advances a tenant's virtual clock and runs every attempt that falls due, until none is due. */
  async advance(tenant: TenantState, seconds: number): Promise<void> {
    // Through the write seam, so a persisted tenant keeps its time travel across restarts.
    tenant.commit('clock', 'offset', tenant.clock.offset + seconds * 1000);
    await this.runDue(tenant);
  }

  /** Runs every due attempt of a tenant, repeatedly, until nothing is due at the tenant's current time. */
  async runDue(tenant: TenantState): Promise<void> {
    const schedule = this.schedules.get(tenant.org);
    for (;;) {
      if (!schedule || this.closed) return;
      const now = tenant.clock.now();
      const due = [...schedule].filter(([, s]) => s.dueAt <= now);
      if (due.length === 0) break;
      for (const [id] of due) schedule.delete(id);
      await Promise.all(due.map(([id, s]) => this.attempt(tenant, id, 'Scheduled', s)));
    }
    this.arm(tenant);
  }

  /** Waits for every attempt under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Notifications still scheduled, over all tenants. */
  pendingCount(): number {
    let n = 0;
    for (const s of this.schedules.values()) n += s.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
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

  private schedule(tenant: TenantState, id: string, entry: Scheduled): void {
    let schedule = this.schedules.get(tenant.org);
    if (!schedule) {
      schedule = new Map();
      this.schedules.set(tenant.org, schedule);
    }
    schedule.set(id, entry);
    this.store.pin(tenant.org, true);
    if (entry.dueAt <= tenant.clock.now()) {
      // Due now (the first attempt): run on the next turn of the event loop, after the response is sent.
      setImmediate(() => this.track(this.runDue(tenant)));
    } else this.arm(tenant);
  }

  /** Sets the tenant's timer to its earliest due attempt (in real time: the virtual clock runs at real speed). */
  private arm(tenant: TenantState): void {
    const old = this.timers.get(tenant.org);
    if (old) clearTimeout(old);
    this.timers.delete(tenant.org);
    const schedule = this.schedules.get(tenant.org);
    if (!schedule || schedule.size === 0 || this.closed) {
      this.store.pin(tenant.org, false);
      return;
    }
    let earliest = Infinity;
    for (const s of schedule.values()) earliest = Math.min(earliest, s.dueAt);
    const delay = Math.max(0, Math.min(earliest - tenant.clock.now(), 2 ** 31 - 1));
    const timer = setTimeout(() => this.track(this.runDue(tenant)), delay);
    timer.unref();
    this.timers.set(tenant.org, timer);
  }

  private track<T>(promise: Promise<T>): void {
    const p = promise.catch(() => undefined).finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** One delivery attempt: send, record the attempt, move the notification on. */
  private async attempt(tenant: TenantState, id: string, trigger: 'Scheduled' | 'Manual', scheduled: Scheduled | null): Promise<void> {
    const notification = tenant.notifications.get(id);
    if (!notification) return;
    const raw = serialisePayload(notification.payload);
    const faults = this.options.faults;
    let signature = sign(raw, tenant.webhookSecret);
    let body = raw;
    if (faults.has('signature-uppercase-hex')) signature = signature.toUpperCase();
    if (faults.has('signature-reserialised')) body = JSON.stringify(notification.payload, null, 2);
    const outcome: AttemptOutcome = await this.semaphore.run(() =>
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
    if (!current || this.store.peek(tenant.org) !== tenant) return;
    const number = current.attemptCount + 1;
    const attemptId = tenant.ids.next('att');
    const startedAt = tenant.clock.now() - (outcome.endedAtMs - outcome.startedAtMs);
    const attempt: DeliveryAttempt = {
      id: attemptId,
      notificationId: id,
      number,
      trigger,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: tenant.nowIso(),
      durationMs: Math.max(0, Math.round(outcome.endedAtMs - outcome.startedAtMs)),
      responseStatus: outcome.responseStatus,
      responseBodyExcerpt: outcome.responseBodyExcerpt,
      errorKind: outcome.errorKind,
      success: outcome.success,
    };
    tenant.commit('attempt', `${id}/${attemptId}`, attempt);

    let status: Notification['status'] = current.status;
    let nextAttemptAt: string | null = null;
    if (outcome.success) status = 'Success';
    else if (trigger === 'Manual') status = 'Failure';
    else if (scheduled) {
      const auto = scheduled.auto + 1;
      const delay = this.options.retrySchedule[auto];
      if (delay === undefined) status = 'Failure';
      else {
        const dueAt = scheduled.dueAt + delay * 1000;
        nextAttemptAt = new Date(dueAt).toISOString();
        status = 'Pending';
        this.schedule(tenant, id, { dueAt, auto });
      }
    }
    tenant.commit('notification', id, {
      ...current,
      status,
      attemptCount: number,
      lastAttemptAt: attempt.startedAt,
      nextAttemptAt,
      lastModifiedAt: tenant.nowIso(),
    });
  }

  private drop(org: string): void {
    this.schedules.delete(org);
    const timer = this.timers.get(org);
    if (timer) clearTimeout(timer);
    this.timers.delete(org);
  }
}
