import type { TenantState } from '../store/tenant-state.js';
import { trimHistory } from './history.js';
import { laterIso } from './timeline.js';

/**
 * The tenant's oldest Pending notifications beyond `max` (`--max-pending-notifications`; docs/DESIGN.md, "Shared
 * sandbox"): the ones to end as Failure (`endPending`). Finished notifications are trimmed by `trimHistory`
 * (history.ts); Pending ones never were, so subscriptions to a receiver that never answers grew a tenant's
 * notifications, and the mock's heap, without end.
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
function oldestPendingBeyond(tenant: TenantState, max: number | undefined): string[] {
  if (max === undefined || tenant.notificationCount <= max) return [];
  const pending = tenant.pendingNotifications;
  if (pending.size <= max) return [];
  const beyond: string[] = [];
  for (const id of pending) {
    if (beyond.length === pending.size - max) break;
    beyond.push(id);
  }
  return beyond;
}

/**
 * Ends the given Pending notifications (`oldestPendingBeyond`) as Failure, the reason in `failureReason`; one the
 * tenant no longer holds (forgotten by `trimHistory` in the same fan-out) is skipped.
 */
function endPending(tenant: TenantState, ids: readonly string[], max: number): void {
  if (ids.length === 0) return;
  const now = tenant.clock.now();
  const nowIso = new Date(now).toISOString();
  const failureReason = `Ended by the tenant's bound of ${max} Pending notifications (--max-pending-notifications): newer ones were made while this one waited for a 2xx answer; no further automatic attempt is made.`;
  for (const id of ids) {
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
}

/**
 * Holds a tenant within its two bounds of notifications after a fan-out: its oldest Pending ones beyond `maxPending`
 * are ended (`cancel` is told their ids first, before anything is written, to drop their scheduled and waiting
 * attempts), and its oldest finished ones beyond `maxKept` forgotten (history.ts). One ended and forgotten by the same
 * call is only forgotten: written as a Failure first, it would be a write nobody can read. A tenant at both bounds
 * (the defaults are equal) ends and forgets as many as each of its fan-outs makes, so that write was a third of the
 * writes of a fan-out to receivers that never answer (bench noisy-neighbour).
 */
export function holdNotificationBounds(
  tenant: TenantState,
  maxPending: number | undefined,
  maxKept: number | undefined,
  cancel: (ending: readonly string[]) => void,
): void {
  const ending = oldestPendingBeyond(tenant, maxPending);
  if (ending.length > 0) cancel(ending);
  trimHistory(tenant, maxKept, ending);
  if (maxPending !== undefined) endPending(tenant, ending, maxPending);
}
