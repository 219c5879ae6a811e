import { createHmac, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { MAX_NOTIFICATIONS, type Notification, nextId, type Tenant } from './tenants.js';

/**
 * Webhook notifications and their delivery (Events 4; States and transitions). The schedule, time-out, payload
 * shape and event identifier header are not shown in the reference; these are this server's choices.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [0, 1000, 2000, 4000];
const ATTEMPT_TIMEOUT_MS = 3000;
const EVENT_ID_HEADER = 'X-Webhook-Id';

/** Lowercase hexadecimal HMAC-SHA256 of the exact bytes (Authentication 5). */
function sign(secret: string, bytes: Buffer): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

export class Deliverer {
  private readonly agent = new Agent({ connect: { timeout: ATTEMPT_TIMEOUT_MS } });
  private readonly stop = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** `delaysMs`: the delay of each automatic attempt, the first after the event, the next after the attempt before. */
  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly delaysMs: readonly number[],
  ) {}

  /**
   * Announces a change: one notification per subscription of the tenant to this event and version, all carrying
   * one payload serialised once.
   */
  emit(tenant: Tenant, eventName: string, eventVersion: number, resource: Record<string, unknown>): void {
    const subscriptions = [...tenant.subscriptions.values()].filter(
      (s) => s.eventName === eventName && s.eventVersion === eventVersion,
    );
    if (subscriptions.length === 0 || this.closed) return;
    const emittedAt = new Date().toISOString();
    const payload = {
      eventId: `evt_${randomUUID()}`,
      event: eventName,
      version: eventVersion,
      tenant: tenant.org,
      emittedAt,
      resource,
    };
    const body = Buffer.from(JSON.stringify(payload));
    const signed = this.faults.has('signature-reserialised') ? Buffer.from(JSON.stringify(payload, null, 2)) : body;
    let signature = sign(tenant.webhookSecret, signed);
    if (this.faults.has('signature-uppercase-hex')) signature = signature.toUpperCase();
    for (const subscription of subscriptions) {
      const notification: Notification = {
        id: nextId(tenant, 'ntf'),
        eventId: payload.eventId,
        subscriptionId: subscription.id,
        endpoint: subscription.endpoint,
        event: eventName,
        version: eventVersion,
        status: 'Pending',
        createdAt: emittedAt,
        lastModifiedAt: emittedAt,
        body,
        signature,
        attempts: [],
        automaticLeft: this.delaysMs.length,
        timer: undefined,
      };
      tenant.notifications.set(notification.id, notification);
      this.trim(tenant);
      this.schedule(tenant, notification);
    }
  }

  /** A manual attempt, in any state; resolves once the attempt is recorded. */
  async retry(tenant: Tenant, notification: Notification): Promise<void> {
    if (this.closed) return;
    await this.track(this.attempt(tenant, notification, true));
  }

  /** Stops timers and in-flight deliveries and closes the outgoing connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stop.abort();
    await Promise.allSettled([...this.inFlight]);
    await this.agent.destroy();
  }

  /** Keeps the newest MAX_NOTIFICATIONS of a tenant. */
  private trim(tenant: Tenant): void {
    for (const [id, old] of tenant.notifications) {
      if (tenant.notifications.size <= MAX_NOTIFICATIONS) break;
      if (old.timer) {
        clearTimeout(old.timer);
        this.timers.delete(old.timer);
      }
      old.automaticLeft = 0;
      tenant.notifications.delete(id);
    }
  }

  private schedule(tenant: Tenant, notification: Notification): void {
    if (this.closed || notification.automaticLeft <= 0) return;
    const delay = this.delaysMs[this.delaysMs.length - notification.automaticLeft] ?? 0;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      notification.timer = undefined;
      void this.track(this.attempt(tenant, notification, false));
    }, delay);
    notification.timer = timer;
    this.timers.add(timer);
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }

  private async attempt(tenant: Tenant, notification: Notification, manual: boolean): Promise<void> {
    if (!manual) notification.automaticLeft -= 1;
    const startedAt = new Date().toISOString();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await request(notification.endpoint, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'x-hmac-signature': notification.signature,
          [EVENT_ID_HEADER.toLowerCase()]: notification.eventId,
          'user-agent': 'opsapi-webhooks/1',
        },
        body: notification.body,
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
        headersTimeout: ATTEMPT_TIMEOUT_MS,
        bodyTimeout: ATTEMPT_TIMEOUT_MS,
      });
      statusCode = response.statusCode;
      await response.body.dump().catch(() => undefined);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    notification.attempts.push({ id: nextId(tenant, 'att'), statusCode, startedAt, manual, error });
    notification.lastModifiedAt = new Date().toISOString();
    if (ok) {
      notification.status = 'Success';
      notification.automaticLeft = 0;
      if (notification.timer) {
        clearTimeout(notification.timer);
        this.timers.delete(notification.timer);
        notification.timer = undefined;
      }
      return;
    }
    if (manual) {
      // A failed manual attempt leaves a running automatic schedule alone (state after a manual retry: not shown).
      if (notification.automaticLeft <= 0 && notification.timer === undefined) notification.status = 'Failure';
      return;
    }
    if (notification.status === 'Success') return;
    if (notification.automaticLeft > 0) this.schedule(tenant, notification);
    else notification.status = 'Failure';
  }
}
