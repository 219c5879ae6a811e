import type { TenantState } from '../store/tenant-state.js';
import { ClientCheckRun, type ClientChecksStart } from './run.js';

/**
 * The client-check run of each tenant state, like its coverage recorder (mock/coverage/tenants.ts): keyed by the
 * state object, so a reset or an eviction of the tenant ends the run with the state it observed, and a tenant
 * without a run costs one lookup per request.
 */
const runs = new WeakMap<TenantState, ClientCheckRun>();

/**
 * The subscriptions of each tenant state made by the kit's own set-up (the Testing API's listeners,
 * mock/control/setup.ts), never by the client: their deliveries are not judged (docs/DESIGN.md, "Client
 * certification").
 */
const setUp = new WeakMap<TenantState, Set<string>>();

/**
 * Whether a run was ever started in this process: until one is, a request no tenant was found for (a refused one)
 * is not worth attributing for the checks (a signature to verify, an API key to look up on every such request).
 */
let started = false;

/** Whether client checks ever ran in this process (a tenant's run may have ended since). */
export function anyRunStarted(): boolean {
  return started;
}

/** The run of a tenant, if checks run for it. */
export function runOf(tenant: TenantState): ClientCheckRun | undefined {
  return runs.get(tenant);
}

/** Starts (or restarts, forgetting what was observed) the checks of a tenant. */
export function startRun(tenant: TenantState, start: ClientChecksStart, now: number): ClientCheckRun {
  const run = new ClientCheckRun(start, now);
  runs.set(tenant, run);
  started = true;
  return run;
}

/** Ends the checks of a tenant; the run that ended, if one ran. */
export function endRun(tenant: TenantState): ClientCheckRun | undefined {
  const run = runs.get(tenant);
  runs.delete(tenant);
  return run;
}

/** Marks a subscription as made by the kit's set-up (not judged). */
export function markSetUpSubscription(tenant: TenantState, id: string): void {
  let ids = setUp.get(tenant);
  if (!ids) {
    ids = new Set();
    setUp.set(tenant, ids);
  }
  ids.add(id);
}

/** Whether a subscription was made by the kit's set-up. */
export function isSetUpSubscription(tenant: TenantState, id: string): boolean {
  return setUp.get(tenant)?.has(id) ?? false;
}
