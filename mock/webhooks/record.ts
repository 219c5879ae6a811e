import type { DeliveryAttempt, Notification } from '../../spec/schemas/notifications.js';
import type { TenantState } from '../store/tenant-state.js';
import type { Transition } from './policy.js';
import type { Job } from './runtime.js';
import { laterIso, type Placement } from './timeline.js';
import type { AttemptOutcome } from './transport.js';

/**
 * Stores an attempt and moves its notification on, through the tenant's write seam (so persistence and the journal
 * see both). Attempts are numbered in the order they end (`number` = the notification's `attemptCount` after it):
 * when a manual retry overlaps an automatic attempt still under way, the one that ends first has the lower number;
 * `startedAt` tells which was sent first.
 *
 * The record keeps at most `maxAttempts` attempts (`--max-attempts-per-notification`; docs/DESIGN.md, "Shared
 * sandbox"): manual retries are unbounded in number, so beyond it the oldest attempt is dropped from the record
 * (inferred: the newest tell what a receiver does now). `attemptCount` and `number` still count every attempt made.
 */
export function recordAttempt(
  tenant: TenantState,
  current: Notification,
  job: Job,
  outcome: AttemptOutcome,
  placed: Placement,
  transition: Transition,
  maxAttempts?: number,
): void {
  const id = current.id;
  const number = current.attemptCount + 1;
  const attemptId = tenant.ids.next('att');
  const attempt: DeliveryAttempt = {
    id: attemptId,
    notificationId: id,
    number,
    trigger: job.trigger,
    startedAt: new Date(placed.startedAt).toISOString(),
    endedAt: new Date(placed.endedAt).toISOString(),
    durationMs: placed.durationMs,
    responseStatus: outcome.responseStatus,
    responseBodyExcerpt: outcome.responseBodyExcerpt,
    errorKind: outcome.errorKind,
    success: outcome.success,
  };
  tenant.commit('attempt', `${id}/${attemptId}`, attempt);
  dropOldestAttempts(tenant, id, maxAttempts);
  const status = transition.decided ? transition.status : current.status;
  const nextAttemptAt = !transition.decided
    ? current.nextAttemptAt
    : transition.next
      ? new Date(transition.next.dueAt).toISOString()
      : null;
  tenant.commit('notification', id, {
    ...current,
    status,
    attemptCount: number,
    lastAttemptAt:
      current.lastAttemptAt && Date.parse(current.lastAttemptAt) > placed.startedAt
        ? current.lastAttemptAt
        : attempt.startedAt,
    nextAttemptAt,
    lastModifiedAt: laterIso(current.lastModifiedAt, placed.endedAt),
  });
}

/** Drops a notification's oldest attempts from its record beyond `max`, through the write seam. */
function dropOldestAttempts(tenant: TenantState, notificationId: string, max: number | undefined): void {
  if (max === undefined) return;
  const attempts = tenant.attemptsOf(notificationId);
  if (attempts.length <= max) return;
  for (const old of attempts.slice(0, attempts.length - max))
    tenant.commit('attempt', `${notificationId}/${old.id}`, null);
}
