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

/** The key of a receiver for the per-endpoint concurrency bound: its origin (scheme, host and port). */
export function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}
