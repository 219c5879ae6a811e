import type { Notification, WebhookPayload } from '../../spec/schemas/notifications.js';
import { findEvent, findEventVersion, latestVersion, type EventVersionDef } from '../../spec/events/catalog.js';
import type { TenantState } from '../store/tenant-state.js';
import { buildPayload, projectData } from './payload.js';
import { sampleData } from './sample-data.js';

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

/** When the notifications of one emission are made. */
interface EmissionTimes {
  /** Tenant time of the event. */
  readonly createdAt: number;
  /** Tenant time the first attempt is due. */
  readonly firstDueAt: number;
  /** The next sample-data counter; called only when the request brings no data. */
  readonly sampleCounter: () => number;
}

/**
 * Fans an event out (Events, points 3 and 4): one Pending notification per subscription of the tenant bound to
 * the event's name (and version, when one is given), each committed through the tenant's write seam with the
 * payload of its subscription's version. Returns the event id and the notification ids, or `EVENT_NOT_FOUND` for
 * a name or version the catalog does not have.
 */
export function fanOut(
  tenant: TenantState,
  request: EmitRequest,
  times: EmissionTimes,
): Emission | { error: 'EVENT_NOT_FOUND' } {
  const event = findEvent(request.eventName);
  if (!event || (request.eventVersion !== undefined && !findEventVersion(request.eventName, request.eventVersion)))
    return { error: 'EVENT_NOT_FOUND' };
  const eventId = tenant.ids.next('evt');
  const sampled =
    request.eventVersion !== undefined ? findEventVersion(event.eventName, request.eventVersion) : latestVersion(event);
  const base = request.data ?? sampleData((sampled ?? latestVersion(event)).data, tenant, times.sampleCounter());
  const notifications: string[] = [];
  // Made at the first notification: most writes of most tenants have no subscription to fan out to.
  let occurredAt = '';
  let nextAttemptAt = '';
  // One payload per version, shared by the notifications of this emission (it is the same event; nothing changes a
  // stored payload in place): a fan-out to many subscriptions then keeps one copy of the data instead of one each.
  let payloads: Map<number, WebhookPayload> | undefined;
  const payloadOf = (version: EventVersionDef): WebhookPayload => {
    payloads ??= new Map();
    let payload = payloads.get(version.version);
    if (!payload) {
      const data = request.data && !request.project ? { ...request.data } : projectData(version, base);
      payload = buildPayload(eventId, event.eventName, version.version, occurredAt, tenant.org, data);
      payloads.set(version.version, payload);
    }
    return payload;
  };
  tenant.subscriptions.forEach((subscription) => {
    if (subscription.eventName !== event.eventName) return;
    if (request.eventVersion !== undefined && subscription.eventVersion !== request.eventVersion) return;
    const version = findEventVersion(event.eventName, subscription.eventVersion);
    if (!version) return;
    const id = tenant.ids.next('ntf');
    if (nextAttemptAt === '') {
      occurredAt = new Date(times.createdAt).toISOString();
      nextAttemptAt = new Date(times.firstDueAt).toISOString();
    }
    const notification: Notification = {
      id,
      status: 'Pending',
      eventId,
      eventName: event.eventName,
      eventVersion: subscription.eventVersion,
      subscriptionId: subscription.id,
      endpoint: subscription.endpoint,
      attemptCount: 0,
      nextAttemptAt,
      lastAttemptAt: null,
      createdAt: occurredAt,
      lastModifiedAt: occurredAt,
      failureReason: null,
      payload: payloadOf(version),
    };
    tenant.commit('notification', id, notification);
    notifications.push(id);
  });
  return { eventId, notifications };
}
