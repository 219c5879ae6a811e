import type { TenantState } from '../store/tenant-state.js';

const NONE: ReadonlySet<string> = new Set();

/**
 * Forgets a tenant's oldest finished notifications (Success or Failure, with their attempts) beyond `max` (inferred:
 * keeps a long-running mock under webhook traffic bounded). Pending ones are always kept, except those in `ending`,
 * about to be ended by the Pending bound and counted as finished already (pending-bound.ts `holdNotificationBounds`).
 *
 * Down to `max` at every emission, not in batches: the oldest are nearly all finished, so finding the excess costs
 * about the excess, and forgetting 100 at each fan-out spreads the work that forgetting 1,000 at every tenth one did
 * in one stall of several milliseconds for every other tenant (bench noisy-neighbour).
 */
export function trimHistory(tenant: TenantState, max: number | undefined, ending: readonly string[] = []): void {
  if (max === undefined || tenant.notificationCount <= max) return;
  // Made only past the early exit: most fan-outs of most tenants have nothing to trim.
  const endingIds = ending.length > 0 ? new Set(ending) : NONE;
  const drop: string[] = [];
  let size = tenant.notifications.size;
  for (const n of tenant.notifications.values()) {
    if (size <= max) break;
    if (n.status === 'Pending' && !endingIds.has(n.id)) continue;
    drop.push(n.id);
    size--;
  }
  for (const id of drop) tenant.commit('notification', id, null);
}
