import type { Exchange } from '../client.js';
import type { RunContext } from '../context.js';
import { nonce } from '../helpers.js';

export const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';
/** Events the run's own writes emit; seeded subscriptions avoid them so they stay quiet. */
const EMITTED = new Set([
  'Warehouse.Stock.Updated',
  'Items.Sku.InspectionUpdated',
  'Items.Family.Deleted',
  'Planning.PurchaseOrder.LineUpdated',
]);

/** The event names and versions of the environment (memoised). */
export function eventVersions(run: RunContext): Promise<{ eventName: string; eventVersion: number }[]> {
  return run.memo('events:versions', async () => {
    const ex = await run.client.send('shared', { method: 'GET', path: '/v1/notifications/events/versions' });
    return Array.isArray(ex.json)
      ? (ex.json as { eventName: string; eventVersion: number }[]).filter(
          (v) => typeof v.eventName === 'string' && typeof v.eventVersion === 'number',
        )
      : [];
  });
}

/** An endpoint for subscriptions the run creates: its receiver when it has one, else an address nothing is sent to. */
function endpoint(run: RunContext): string {
  return run.receiver?.url ?? `https://conform.invalid/hooks/${nonce()}`;
}

/** Creates a subscription and registers its deletion at the end of the run. */
export async function subscribe(
  run: RunContext,
  check: string,
  eventName: string,
  eventVersion: number,
  url = endpoint(run),
): Promise<Exchange> {
  const ex = await run.client.send(check, {
    method: 'POST',
    path: SUBSCRIPTIONS,
    json: { endpoint: url, eventName, eventVersion },
  });
  const id = (ex.json as { id?: unknown } | undefined)?.id;
  if (ex.status >= 200 && ex.status < 300 && typeof id === 'string') {
    run.cleanup.push({
      label: `delete subscription ${id}`,
      run: async () => {
        await run.client.send('cleanup', { method: 'DELETE', path: `${SUBSCRIPTIONS}/${encodeURIComponent(id)}` });
      },
    });
  }
  return ex;
}

/** Drops the pending deletion of a subscription the run deleted itself. */
export function forget(run: RunContext, id: string): void {
  const i = run.cleanup.findIndex((step) => step.label === `delete subscription ${id}`);
  if (i !== -1) run.cleanup.splice(i, 1);
}

/**
 * Seeds a few subscriptions (to events the run never emits) so the subscription list has data to page, sort and
 * filter. They are deleted at the end of the run.
 */
export async function seedData(run: RunContext): Promise<void> {
  const versions = (await eventVersions(run)).filter((v) => !EMITTED.has(v.eventName));
  const picks = [versions[0], versions[Math.floor(versions.length / 2)], versions[versions.length - 1]].filter(
    (v): v is { eventName: string; eventVersion: number } => v !== undefined,
  );
  for (const v of picks) {
    await subscribe(run, 'seed', v.eventName, v.eventVersion, `https://conform.invalid/seed/${nonce()}`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}
