import { startReceiver, type Answer, type Delivery, type Responder } from '../common/receiver.js';
import type { TenantControl } from '../mock/control/tenant.js';
import type { Subscription } from '../spec/schemas/notifications.js';
import { describeDelivery, webhookDelivery, type WebhookDelivery } from './delivery.js';
import { chosenEvents, type EventChoice } from './events.js';
import { shown } from './check.js';

/** What `t.webhooks.listen` subscribes to. */
export interface ListenOptions {
  /** Catalog event names (their latest version) or `{ eventName, eventVersion }`; every catalog event when left out. */
  readonly events?: readonly EventChoice[];
}

/** Which delivery `hooks.next` waits for. */
export interface NextOptions {
  /** Only a delivery of this event (the others stay for later calls). */
  readonly eventName?: string;
  /** How long to wait, ms (default 5000). */
  readonly timeoutMs?: number;
}

/** How the receiver answers: a status (empty body), an answer of common/receiver.ts (`'hang'`, `'reset'`), or a function. */
export type ListenerAnswer = number | Answer | Responder;

/** A loopback receiver subscribed for a tenant (docs/DESIGN.md, "Testing API"). */
export interface WebhookListener {
  /** Where the receiver listens (the subscriptions' endpoint). */
  readonly url: string;
  /** The subscriptions it holds now (made again by `t.reset()`). */
  readonly subscriptions: readonly Subscription[];
  /** The next delivery not yet returned, oldest first; rejects after `timeoutMs` naming what did arrive. */
  next(options?: NextOptions): Promise<WebhookDelivery>;
  /** How to answer from now on (default 200): e.g. `respondWith(500)` makes every attempt fail. */
  respondWith(answer: ListenerAnswer): void;
  /** Deletes its subscriptions and closes the receiver. */
  close(): Promise<void>;
}

/** What the mock keeps of an open listener: to subscribe it again after a reset and to close it with the mock. */
export interface OpenListener {
  readonly org: string;
  resubscribe(): void;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5000;
/** Deliveries named in the error of a wait that timed out. */
const NAMED_IN_ERRORS = 5;

function responder(answer: ListenerAnswer): Responder {
  if (typeof answer === 'function') return answer;
  if (typeof answer === 'number') {
    if (!Number.isInteger(answer) || answer < 200 || answer > 599)
      throw new RangeError(`respondWith: a status from 200 to 599, got ${shown(answer)}`);
    return () => ({ status: answer, body: '' });
  }
  if (answer === 'hang' || answer === 'reset' || (typeof answer === 'object' && answer !== null)) return () => answer;
  throw new TypeError(`respondWith: a status, an answer or a function, got ${shown(answer)}`);
}

function checkNext(options: unknown, subscribed: ReadonlySet<string>): { eventName?: string; timeoutMs: number } {
  const { eventName, timeoutMs = DEFAULT_TIMEOUT_MS, ...rest } = (options ?? {}) as NextOptions;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new TypeError(`hooks.next: unknown option ${unknown}; known: eventName, timeoutMs`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`hooks.next: timeoutMs must be a number of ms > 0, got ${shown(timeoutMs)}`);
  if (eventName !== undefined && !subscribed.has(eventName))
    throw new RangeError(
      `hooks.next: the listener is not subscribed to ${shown(eventName)}; it listens to ${[...subscribed].join(', ')}`,
    );
  return { ...(eventName === undefined ? {} : { eventName }), timeoutMs };
}

/**
 * Starts a loopback receiver that verifies every signature with the tenant's secret, and subscribes it to the chosen
 * events without a request (mock/control/setup.ts: the set-up is not the client's traffic).
 */
export async function listen(
  tenant: TenantControl,
  options: { readonly blockPrivateEndpoints: boolean },
  open: Set<OpenListener>,
  listenOptions: ListenOptions = {},
): Promise<WebhookListener> {
  const { events, ...rest } = listenOptions ?? {};
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new TypeError(`webhooks.listen: unknown option ${unknown}; known: events`);
  const refs = chosenEvents(events);
  if (options.blockPrivateEndpoints)
    throw new Error(
      'webhooks.listen: the mock blocks private endpoints (blockPrivateEndpoints, or a non-loopback host without allowPrivateEndpoints), so it never delivers to a loopback receiver',
    );
  const subscribedNames = new Set(refs.map((r) => r.eventName));
  const receiver = await startReceiver({ host: '127.0.0.1', port: 0, secret: () => tenant.webhookSecret() });
  const endpoint = `${receiver.url}/webhooks`;
  const consumed = new Set<number>();
  let subscriptions: Subscription[] = [];
  let closing: Promise<void> | undefined;

  const entry: OpenListener = {
    org: tenant.org,
    resubscribe: () => {
      subscriptions = refs.map((r) => tenant.subscribe(endpoint, r.eventName, r.eventVersion));
    },
    close: () =>
      (closing ??= (async () => {
        open.delete(entry);
        for (const s of subscriptions) tenant.unsubscribe(s.id);
        await receiver.close();
      })()),
  };
  try {
    entry.resubscribe();
  } catch (error) {
    await receiver.close();
    throw error;
  }
  open.add(entry);

  const timedOut = (what: string, timeoutMs: number) => {
    const recent = receiver.received
      .slice(-NAMED_IN_ERRORS)
      .map((d: Delivery) => describeDelivery(d, consumed.has(d.index)));
    const got = receiver.count === 0 ? 'nothing arrived' : `${receiver.count} arrived, the last: ${recent.join('; ')}`;
    return new Error(`hooks.next: no ${what} within ${timeoutMs} ms (${got})`);
  };

  return {
    url: endpoint,
    get subscriptions() {
      return structuredClone(subscriptions);
    },
    next: async (nextOptions) => {
      const { eventName, timeoutMs } = checkNext(nextOptions, subscribedNames);
      if (closing) throw new Error('hooks.next: the listener is closed');
      // Takes the delivery it accepts (marks it consumed in the same step), so two waits never return one delivery.
      const take = (d: Delivery) => {
        if (d.method !== 'POST' || consumed.has(d.index)) return false;
        if (eventName !== undefined && webhookDelivery(d).eventName !== eventName) return false;
        consumed.add(d.index);
        return true;
      };
      const what = eventName === undefined ? 'new delivery' : `new delivery of ${eventName}`;
      const waited = await receiver.waitFor(take, timeoutMs, what);
      if (waited.ok) return webhookDelivery(waited.delivery);
      if (closing) throw new Error('hooks.next: the listener closed while waiting');
      throw timedOut(what, timeoutMs);
    },
    respondWith: (answer) => receiver.respondWith(responder(answer)),
    close: entry.close,
  };
}
