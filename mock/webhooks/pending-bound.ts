import type { TenantState } from '../store/tenant-state.js';
import { laterIso } from './timeline.js';

/**
 * Ends a tenant's oldest Pending notifications beyond `max` (`--max-pending-notifications`; docs/DESIGN.md, "Shared
 * sandbox") as Failure, with the reason in `failureReason`; returns their ids, whose scheduled attempts the caller
 * cancels. Finished notifications are trimmed by `trimHistory` (history.ts); Pending ones never were, so subscriptions
 * to a receiver that never answers grew a tenant's notifications, and the mock's heap, without end.
 *
 * Inferred (States and transitions: "Pending -> Failure when the automatic attempts are exhausted"; nothing is said
 * of a bound): ending is the honest answer to a receiver that never answers. Its notifications would end Failure
 * anyway once their schedule runs out (hours, by the default schedule); holding more of them than the bound only
 * delays that answer while costing every tenant memory, whereas forgetting them silently would lose what the client
 * can still read and retry. Ended, a notification stays readable, says why, and a manual retry re-delivers it as for
 * any Failure. Its attempts still under way are recorded when they end but decide nothing (engine.ts).
 *
 * Cost: the ended ones only; the tenant keeps its Pending ids in the order they became Pending
 * (TenantState.pendingNotifications), so "the oldest" is the one Pending the longest.
 */
export function endOldestPending(tenant: TenantState, max: number | undefined): string[] {
  if (max === undefined || tenant.notificationCount <= max) return [];
  const pending = tenant.pendingNotifications;
  if (pending.size <= max) return [];
  const ended: string[] = [];
  for (const id of pending) {
    if (ended.length === pending.size - max) break;
    ended.push(id);
  }
  const now = tenant.clock.now();
  const nowIso = new Date(now).toISOString();
  const failureReason = `Ended by the tenant's bound of ${max} Pending notifications (--max-pending-notifications): newer ones were made while this one waited for a 2xx answer; no further automatic attempt is made.`;
  for (const id of ended) {
    const n = tenant.notifications.get(id);
    if (!n) continue;
    tenant.commit('notification', id, {
      ...n,
      status: 'Failure',
      nextAttemptAt: null,
      failureReason,
      lastModifiedAt: laterIso(n.lastModifiedAt, now, nowIso),
    });
  }
  return ended;
}
