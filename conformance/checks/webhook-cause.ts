import type { Exchange } from '../wire/client.js';
import type { RunContext } from '../context.js';
import { mockAdminHeaders } from '../helpers.js';
import { type EventRef, subscriptionOrder } from '../observe/events.js';
import { type Subscribed, subscribe, subscriptionsAt } from '../observe/subscriptions.js';

/** Subscriptions of the receiver a run creates at most (one per event and version offered). */
const MAX_RECEIVER_SUBSCRIPTIONS = 200;

/** Subscription requests in flight at once (the client paces them under the tenant's rate limit too). */
const IN_FLIGHT = 8;

/** The receiver's subscriptions: every one asked for, and the ids of those accepted. */
export interface ReceiverSubscriptions {
  asked: Subscribed[];
  accepted: EventRef[];
  ids: string[];
}

/**
 * Subscribes the receiver to the events it listens to: on a mock with its admin API, the one event the run causes
 * there; elsewhere every event the target offers, at each version it offers (bounded), because which operation emits
 * which event is not shown (Events, point 6). Each is deleted at the end of the run (subscriptions.ts registers it).
 */
export async function subscribeReceiver(run: RunContext, events: readonly EventRef[]): Promise<ReceiverSubscriptions> {
  const url = run.receiver?.url as string;
  const order = subscriptionOrder(events, run.mockAdmin ? 1 : MAX_RECEIVER_SUBSCRIPTIONS);
  const asked: Subscribed[] = new Array(order.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < order.length; i = next++) {
      const e = order[i] as EventRef;
      asked[i] = await subscribe(run, 'webhooks', e.eventName, e.eventVersion, url);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const accepted = order.filter((_, i) => {
    const status = asked[i]?.exchange.status ?? 0;
    return status >= 200 && status < 300;
  });
  const ids = asked.flatMap((s) => (s.id ? [s.id] : []));
  // Create answers are not shown: ids missing from them are the ones listed with the receiver's endpoint.
  if (ids.length < accepted.length) ids.push(...(await subscriptionsAt(run, 'webhooks', url)).values());
  return { asked, accepted, ids: [...new Set(ids)] };
}

/** A request made to cause a notification. */
export interface Cause {
  label: string;
  exchange: Exchange;
}

/** Whether a run can cause a notification, or why not (the precondition a skip names). */
export function causeUnavailable(run: RunContext): string | undefined {
  if (run.mockAdmin) return undefined;
  if (run.options.allowWrites === true && run.data.sku !== undefined) return undefined;
  return run.options.allowWrites === true
    ? 'no SKU to write to, so no notification can be caused: pass --data (the GET /__mock/fixtures format)'
    : 'no notification can be caused without writes: pass --allow-writes with --data (a stock update), or target a mock with its admin API';
}

/**
 * Causes notifications: on a mock with its admin API, `POST /__mock/events` for the event the receiver listens to;
 * elsewhere the documented writes the run may make (the stock update, and the inspection update when an inspection
 * is known), whichever events they emit.
 */
export async function cause(run: RunContext, listened: readonly EventRef[]): Promise<Cause[]> {
  const event = listened[0];
  if (run.mockAdmin && event)
    return [
      {
        label: `POST /__mock/events ${event.eventName} v${event.eventVersion}`,
        exchange: await run.client.send('webhooks', {
          method: 'POST',
          path: '/__mock/events',
          headers: mockAdminHeaders(run),
          json: { eventName: event.eventName, eventVersion: event.eventVersion },
        }),
      },
    ];
  const sku = run.options.allowWrites === true ? run.data.sku : undefined;
  if (!sku) return [];
  const at = `/v1/items/skus/${encodeURIComponent(sku.reference)}`;
  const stock = {
    locationReference: sku.locationReference,
    lotId: sku.lotId,
    stock: 11,
    stockUnitOfMeasureId: sku.baseUnitOfMeasureId,
    comment: 'opsapi conform webhooks',
  };
  const causes: Cause[] = [
    {
      label: `PUT ${at}/stock`,
      exchange: await run.client.send('webhooks', { method: 'PUT', path: `${at}/stock`, json: stock }),
    },
  ];
  const inspection = sku.inspectionIds?.[0];
  if (inspection !== undefined) {
    const path = `${at}/inspections/${encodeURIComponent(inspection)}`;
    causes.push({
      label: `PUT ${path}`,
      exchange: await run.client.send('webhooks', {
        method: 'PUT',
        path,
        json: { name: 'opsapi conform webhooks', isMandatory: false },
      }),
    });
  }
  return causes;
}
