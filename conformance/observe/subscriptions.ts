import type { Exchange } from '../wire/client.js';
import type { CheckDef, RunContext } from '../context.js';
import { nonce, pageOf, poll } from '../helpers.js';
import type { Family } from '../types.js';
import { type EventRef, readEvents } from './events.js';
import { readCollection } from './read-all.js';

export const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';

/**
 * Events the run's writes emit on the kit's own mock: seeded subscriptions avoid them so they stay quiet there (which
 * operation emits which event elsewhere is not shown: Events, point 6).
 */
const EMITTED = new Set([
  'Warehouse.Stock.Updated',
  'Items.Sku.InspectionUpdated',
  'Items.Family.Deleted',
  'Planning.PurchaseOrder.LineUpdated',
]);

/** The event names and versions of the environment, read in either list form (observe/events.ts). */
export async function eventVersions(run: RunContext): Promise<EventRef[]> {
  return (await readEvents(run)).events;
}

/** Why a run has no event to subscribe to: what the events endpoints answered. */
export async function noEventReason(run: RunContext): Promise<string> {
  const read = await readEvents(run);
  return `no event to subscribe to: ${read.reason ?? 'the events endpoints list none'}`;
}

/** An endpoint for subscriptions the run creates: its receiver when it has one, else an address nothing is sent to. */
function endpoint(run: RunContext): string {
  return run.receiver?.url ?? `https://conform.invalid/hooks/${nonce()}`;
}

/** A subscription the run asked for: the answer, and its id (from the answer, else found by its endpoint later). */
export interface Subscribed {
  exchange: Exchange;
  id?: string;
}

/** The `id` of a subscription in an answer (Resources / Webhook subscription: `id` is a string). */
function idIn(json: unknown): string | undefined {
  const id = (json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The subscriptions listed with an endpoint, by `eventName@eventVersion` (the list shape is not shown: read in both
 * forms). Used when a create answer carries no id ("Response and status code of the create operation: not shown").
 */
export async function subscriptionsAt(run: RunContext, check: string, url: string): Promise<Map<string, string>> {
  const read = await readCollection(run.client, check, { path: SUBSCRIPTIONS });
  const out = new Map<string, string>();
  if (typeof read === 'string') return out;
  for (const item of read.items) {
    const id = idIn(item);
    if (item.endpoint === url && id) out.set(`${String(item.eventName)}@${String(item.eventVersion)}`, id);
  }
  return out;
}

const deleteLabel = (id: string) => `delete subscription ${id}`;

function deleteById(run: RunContext, id: string): void {
  run.cleanup.push({
    label: deleteLabel(id),
    run: async () => {
      await run.client.send('cleanup', { method: 'DELETE', path: `${SUBSCRIPTIONS}/${encodeURIComponent(id)}` });
    },
  });
}

/** Registers, once per endpoint, the deletion at the end of the run of every subscription listed with it. */
function deleteByEndpoint(run: RunContext, url: string): void {
  const label = `delete subscriptions to ${url}`;
  if (run.cleanup.some((step) => step.label === label)) return;
  run.cleanup.push({
    label,
    run: async () => {
      const known = new Set(run.cleanup.map((step) => step.label));
      for (const id of (await subscriptionsAt(run, 'cleanup', url)).values())
        if (!known.has(deleteLabel(id)))
          await run.client.send('cleanup', { method: 'DELETE', path: `${SUBSCRIPTIONS}/${encodeURIComponent(id)}` });
    },
  });
}

/** Creates a subscription and registers its deletion at the end of the run. */
export async function subscribe(
  run: RunContext,
  check: string,
  eventName: string,
  eventVersion: number,
  url = endpoint(run),
): Promise<Subscribed> {
  const exchange = await run.client.send(check, {
    method: 'POST',
    path: SUBSCRIPTIONS,
    json: { endpoint: url, eventName, eventVersion },
  });
  if (exchange.status < 200 || exchange.status >= 300) return { exchange };
  const id = idIn(exchange.json);
  if (id) deleteById(run, id);
  else deleteByEndpoint(run, url);
  return id ? { exchange, id } : { exchange };
}

/** Drops the pending deletion of a subscription the run deleted itself. */
export function forget(run: RunContext, id: string): void {
  const i = run.cleanup.findIndex((step) => step.label === deleteLabel(id));
  if (i !== -1) run.cleanup.splice(i, 1);
}

/**
 * Seeds a few subscriptions so the subscription list has data to page, sort and filter; they are deleted at the end
 * of the run. They name events the mock's writes do not emit, and go to a path of the run's receiver beside the one
 * the webhook checks watch when it runs (another target may emit them: its deliveries are answered 2xx and settle),
 * else to an address nothing is sent to.
 */
export async function seedData(run: RunContext): Promise<void> {
  const versions = (await eventVersions(run)).filter((v) => !EMITTED.has(v.eventName));
  const picks = [versions[0], versions[Math.floor(versions.length / 2)], versions[versions.length - 1]].filter(
    (v): v is EventRef => v !== undefined,
  );
  const base = run.receiver ? `${run.receiver.url}-seed` : 'https://conform.invalid/seed';
  for (const v of picks) {
    await subscribe(run, 'seed', v.eventName, v.eventVersion, `${base}/${nonce()}`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

/** Families whose checks read the lists the seeded subscriptions fill: a run seeds only when one is selected. */
const SEED_READERS: ReadonlySet<Family> = new Set(['lists', 'filters', 'isolation']);

/** Whether a selection of checks reads what `seedData` seeds. */
export function readsSeedData(selected: readonly CheckDef[]): boolean {
  return selected.some((c) => SEED_READERS.has(c.family));
}

/**
 * Waits (bounded) until no notification of the main tenant is Pending, so reads see settled data: the runner calls it
 * after the state phase, whose writes and subscriptions cause deliveries.
 */
export async function quiesce(run: RunContext): Promise<void> {
  if (!run.credentials.main || (!run.options.webhooks && !run.options.allowWrites)) return;
  await poll(
    async () => {
      const ex = await run.client
        .send('shared', {
          method: 'GET',
          path: '/v1/notifications/webhook',
          query: { filterBy: 'status[Equals]Pending', pageSize: 1 },
        })
        .catch(() => undefined);
      const page = ex ? pageOf(ex) : undefined;
      return !page || page.totalCount === 0 ? true : undefined;
    },
    5000,
    100,
  );
}
