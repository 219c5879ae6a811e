import { LRUCache } from 'lru-cache';
import type { Notification } from '../../spec/schemas/notifications.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../common/signature.js';
import type { DeliveryRequest } from './transport.js';

/**
 * The request that delivers a notification (Events, point 4): its JSON body as signed, the signature in
 * `X-HMAC-Signature` (Authentication, point 5), and the event id for de-duplication in `X-Event-Id` (inferred:
 * the reference does not show which header carries it), plus the event name, version and notification id.
 */
export function deliveryRequest(notification: Notification, body: string, signature: string): DeliveryRequest {
  return {
    endpoint: notification.endpoint,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'opsapi-mock-webhooks/1',
      [SIGNATURE_HEADER.toLowerCase()]: signature,
      [EVENT_ID_HEADER.toLowerCase()]: notification.eventId,
      'x-event-name': notification.eventName,
      'x-event-version': String(notification.eventVersion),
      'x-notification-id': notification.id,
    },
  };
}

/** Origins of recent endpoints: every attempt asks for one, and a tenant's subscriptions name few endpoints. */
const origins = new LRUCache<string, string>({ max: 1024 });

/** The key of a receiver for the per-endpoint concurrency bound: its origin (scheme, host and port). */
export function originOf(endpoint: string): string {
  let origin = origins.get(endpoint);
  if (origin === undefined) {
    try {
      origin = new URL(endpoint).origin;
    } catch {
      origin = endpoint;
    }
    origins.set(endpoint, origin);
  }
  return origin;
}
