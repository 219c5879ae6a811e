import type { IncomingHttpHeaders } from 'node:http';
import type { Delivery } from '../common/receiver.js';
import { EVENT_ID_HEADER } from '../common/signature.js';

/** A webhook delivery as a test reads it: the payload's fields, whether its signature verified, the headers. */
export interface WebhookDelivery {
  /** The event id (`payload.id`, also the `X-Event-Id` header): the same for every retry of one event. */
  readonly id: string;
  readonly eventName: string;
  readonly eventVersion: number;
  readonly occurredAt: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of the event data directly
  readonly data: any;
  /** `X-HMAC-Signature` is the HMAC-SHA256 of the raw body with the tenant's secret (Authentication, point 5). */
  readonly verified: boolean;
  readonly headers: IncomingHttpHeaders;
  /** The notification delivered (`X-Notification-Id`): the id to read its attempts or to retry it. */
  readonly notificationId: string;
  /** The whole body, parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of the payload directly
  readonly payload: any;
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

/** The delivery a receiver got, as a test reads it (the headers stand in for a body that is not JSON). */
export function webhookDelivery(d: Delivery): WebhookDelivery {
  const payload = typeof d.json === 'object' && d.json !== null ? d.json : {};
  return {
    id: typeof payload.id === 'string' ? payload.id : header(d.headers, EVENT_ID_HEADER),
    eventName: typeof payload.eventName === 'string' ? payload.eventName : header(d.headers, 'x-event-name'),
    eventVersion:
      typeof payload.eventVersion === 'number' ? payload.eventVersion : Number(header(d.headers, 'x-event-version')),
    occurredAt: typeof payload.occurredAt === 'string' ? payload.occurredAt : '',
    data: payload.data,
    verified: d.signature === 'valid',
    headers: d.headers,
    notificationId: header(d.headers, 'x-notification-id'),
    payload: d.json,
  };
}

/** One line naming a delivery, for the error of a wait that timed out. */
export function describeDelivery(d: Delivery, consumed: boolean): string {
  const w = webhookDelivery(d);
  const what = w.eventName ? `${w.eventName} v${w.eventVersion}` : `${d.method} ${d.url}`;
  return `${what} (event ${w.id || '?'}, signature ${d.signature}${consumed ? ', already consumed' : ''})`;
}
