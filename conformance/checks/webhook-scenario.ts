import type { Exchange } from '../wire/client.js';
import type { CheckContext, RunContext } from '../context.js';
import { poll } from '../helpers.js';
import { readEvents } from '../observe/events.js';
import { type Candidate, type Link, linkDelivery, newestLink, sameNotification } from '../observe/links.js';
import { type CollectionRead, readCollection } from '../observe/read-all.js';
import { idOf } from '../observe/tenant-records.js';
import type { Delivery } from '../wire/receiver.js';
import { type Cause, cause, causeUnavailable, type ReceiverSubscriptions, subscribeReceiver } from './webhook-cause.js';
import { noEventReason } from '../observe/subscriptions.js';

export const HISTORY = '/v1/notifications/webhook';

/** What the webhook scenario saw, step by step (each check judges one part). */
export interface Scenario {
  subscriptions: ReceiverSubscriptions;
  causes: Cause[];
  /** The first delivery to the receiver once it was subscribed, and the one linked to a stored notification. */
  firstDelivery?: Delivery;
  link?: Link;
  /** The notification read by id once it left Pending, and its status there (else in the history). */
  final?: Exchange;
  finalStatus?: unknown;
  attempts?: CollectionRead | string;
  retry?: Exchange;
  retryDelivery?: Delivery;
  afterRetry?: Exchange;
  attemptsAfterRetry?: CollectionRead | string;
  problem?: string;
}

export function header(d: Delivery, name: string): string | undefined {
  const v = d.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const one = (id: string) => `${HISTORY}/${encodeURIComponent(id)}`;

/** The notifications of the history (either form: "Response shapes ... of these four operations: not shown"). */
async function history(run: RunContext): Promise<Candidate[] | string> {
  const read = await readCollection(run.client, 'webhooks', { path: HISTORY });
  if (typeof read === 'string') return read;
  return read.items.flatMap((record) => {
    const id = idOf(record);
    return id === undefined ? [] : [{ id, record }];
  });
}

/**
 * The status of a notification: in its read by id when that succeeded (a problem body has a `status` too), else in
 * its history record (Resources / Webhook notification: `id` and the status are its documented fields).
 */
function statusOf(ex: Exchange | undefined, record: Record<string, unknown>): unknown {
  const ok = ex !== undefined && ex.status >= 200 && ex.status < 300;
  return (ok ? (ex.json as { status?: unknown } | undefined)?.status : undefined) ?? record.status;
}

/**
 * Finds the notification of a delivery among those created since the receiver was subscribed (ids not in `before`)
 * and follows it until it leaves `Pending` (States and transitions).
 */
async function follow(run: RunContext, s: Scenario, before: ReadonlySet<string>, since: number): Promise<void> {
  const receiver = run.receiver;
  if (!receiver) return;
  const wait = run.options.deliveryTimeoutMs;
  const mine = new Set([...s.subscriptions.ids, receiver.url]);
  const deliveries = () => receiver.deliveries.filter((d) => d.at >= since && d.path === receiver.path);
  let unreadable: string | undefined;
  let created: Candidate[] = [];
  const settled = async (link: Link | undefined): Promise<true | undefined> => {
    if (!link) return undefined;
    s.link = link;
    s.final = await run.client.send('webhooks', { method: 'GET', path: one(link.notification.id) });
    s.finalStatus = statusOf(s.final, link.notification.record);
    return s.finalStatus !== undefined && s.finalStatus !== 'Pending' ? true : undefined;
  };
  const done = await poll(
    async () => {
      const listed = await history(run);
      if (typeof listed === 'string') {
        unreadable = listed;
        return undefined;
      }
      created = listed.filter((n) => !before.has(n.id));
      return settled(linkDelivery(deliveries(), created, mine));
    },
    wait,
    150,
  );
  if (done || (!s.link && (await settled(newestLink(deliveries(), created, mine))))) return;
  s.problem = s.link
    ? `notification ${s.link.notification.id} was still ${String(s.finalStatus)} after ${wait / 1000} s`
    : unreadable
      ? `the notification history cannot be read: ${unreadable}`
      : `no notification was created in the history since the receiver was subscribed (${wait / 1000} s)`;
}

/** Retries the notification manually and watches what follows (Endpoints / Notification history, retry). */
async function retry(run: RunContext, s: Scenario, link: Link): Promise<void> {
  const receiver = run.receiver;
  if (!receiver) return;
  const wait = run.options.deliveryTimeoutMs;
  const id = link.notification.id;
  const retriedAt = Date.now();
  s.retry = await run.client.send('webhooks', { method: 'POST', path: `${one(id)}/retry` });
  if (s.retry.status < 200 || s.retry.status >= 300) return;
  s.retryDelivery = await receiver.waitFor(
    (d) => d.at >= retriedAt && d.path === receiver.path && d !== link.delivery && sameNotification(link, d),
    wait,
  );
  await poll(
    async () => {
      s.afterRetry = await run.client.send('webhooks', { method: 'GET', path: one(id) });
      const status = statusOf(s.afterRetry, {});
      return status !== undefined && status !== 'Pending' ? true : undefined;
    },
    wait,
    100,
  );
  s.attemptsAfterRetry = await readCollection(run.client, 'webhooks', { path: `${one(id)}/attempts` });
}

/**
 * Subscribes the run's receiver (to every event offered, or on a mock with its admin API to the one it causes there),
 * causes notifications (the documented writes, or `POST /__mock/events`), waits for a delivery, finds its stored
 * notification and follows it to a final state, reads its attempts, then retries it manually. Memoised: every webhook
 * check judges a part of this scenario.
 */
export function scenario(c: CheckContext): Promise<Scenario> {
  return c.run.memo('webhooks:scenario', async () => {
    const run = c.run;
    const wait = run.options.deliveryTimeoutMs;
    const receiver = run.receiver;
    if (!receiver) return c.skip(run.unavailable.get('webhooks') ?? 'no receiver: the webhook receiver is not running');
    const cannot = causeUnavailable(run);
    if (cannot) return c.skip(cannot);
    const { events } = await readEvents(run);
    if (events.length === 0) return c.skip(await noEventReason(run));
    // Notifications stored before the receiver listens are not its own: their ids are set aside.
    const earlier = await history(run);
    const before = new Set(typeof earlier === 'string' ? [] : earlier.map((n) => n.id));
    const since = Date.now();
    const subscriptions = await subscribeReceiver(run, events);
    const s: Scenario = { subscriptions, causes: [] };
    if (subscriptions.accepted.length === 0) {
      const first = subscriptions.asked[0]?.exchange;
      s.problem = `every subscription of the receiver was refused (the first with ${first?.status})`;
      return s;
    }
    s.causes = await cause(run, subscriptions.accepted);
    s.firstDelivery = await receiver.waitFor((d) => d.at >= since && d.path === receiver.path, wait);
    if (!s.firstDelivery) {
      const causes = s.causes.map((x) => `${x.label} (${x.exchange.status})`).join(', ');
      s.problem = `no delivery within ${wait / 1000} s of ${causes || 'the subscriptions'} to the receiver`;
      return s;
    }
    await follow(run, s, before, since);
    if (!s.link) return s;
    s.attempts = await readCollection(run.client, 'webhooks', { path: `${one(s.link.notification.id)}/attempts` });
    if (!s.problem) await retry(run, s, s.link);
    return s;
  });
}
