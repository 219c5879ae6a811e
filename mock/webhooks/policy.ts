import type { DeliveryAttempt, NotificationStatus } from '../../spec/schemas/notifications.js';

/**
 * The retry policy of webhook notifications: which state a notification moves to after an attempt and when the
 * next automatic attempt is due. Pure: no I/O, no clock; every instant is passed in (epoch ms, tenant time).
 *
 * Documented (States and transitions):
 * - Pending -> Success when the receiver answers 2xx;
 * - Pending -> Failure when the automatic attempts are exhausted; a manual retry is then possible.
 *
 * Inferred ("Other transitions (including the state after a manual retry): not shown"; docs/DESIGN.md, "Defaults for what the reference leaves open"):
 * - a failed automatic attempt with schedule left keeps the notification Pending, the next attempt due at this
 *   attempt's due time plus the next delay of the schedule (default immediately, 5s, 5m, 30m, 2h, 5h, 10h, 10h);
 * - every kind of failure counts alike: a non-2xx status, a timeout, a connection error, a blocked endpoint;
 * - a manual retry is allowed in any state (like Stripe's resend): it cancels the automatic attempts still
 *   scheduled, records a Manual attempt now, keeps the notification Pending while it runs, and that attempt alone
 *   ends it Success or Failure (a manual attempt never schedules automatic ones);
 * - an attempt planned before a manual retry (an older generation) that ends later is recorded but decides
 *   nothing;
 * - a notification is a self-contained record: it copied its subscription's endpoint when it was made, so once the
 *   subscription is deleted its scheduled attempts still run and a manual retry still re-delivers, to the recorded
 *   endpoint. Deleting a subscription stops new notifications, not the delivery of existing ones (kept as the
 *   mock always behaved; a receiver that wants no more answers non-2xx until they end Failure).
 */

export type Status = NotificationStatus;
export type Trigger = DeliveryAttempt['trigger'];

/** One attempt to make. */
export interface PlannedAttempt {
  readonly trigger: Trigger;
  /** Tenant time the attempt is due. */
  readonly dueAt: number;
  /** Automatic attempts made before this one. */
  readonly auto: number;
  /** The notification's generation when the attempt was planned; each manual retry starts a new one. */
  readonly generation: number;
}

/** What the policy reads of a notification. */
interface NotificationView {
  readonly status: Status;
  /** Its current generation: 0 until a manual retry. */
  readonly generation: number;
  /** Whether the subscription it was made for still exists (read, and by design without effect: see above). */
  readonly subscribed: boolean;
}

/** What the policy reads of an attempt's outcome: only whether the receiver answered 2xx in time. */
interface Outcome {
  readonly success: boolean;
}

/** The state after an attempt. */
export type Transition =
  /** The attempt decides: the new status and the next automatic attempt, if any. */
  | { readonly decided: true; readonly status: Status; readonly next: PlannedAttempt | null }
  /** An attempt of an older generation: recorded only, status and next attempt unchanged. */
  | { readonly decided: false };

/** The state right after a manual retry, and the attempt to start now. */
interface ManualRetry {
  readonly status: 'Pending';
  /** No automatic attempt is scheduled any more. */
  readonly next: null;
  readonly attempt: PlannedAttempt;
}

const MS = 1000;

/** The first automatic attempt of a new notification: the schedule's first delay after its creation (seconds). */
export function firstAttempt(createdAt: number, schedule: readonly number[]): PlannedAttempt {
  return { trigger: 'Scheduled', dueAt: createdAt + (schedule[0] ?? 0) * MS, auto: 0, generation: 0 };
}

/**
 * The automatic attempt of a Pending notification restored from a state file: at its `nextAttemptAt`, or now when
 * an attempt was under way at shutdown (it had none scheduled); the schedule continues after the automatic
 * attempts it already made (inferred).
 */
export function resumedAttempt(nextAttemptAt: number | null, automaticSoFar: number, now: number): PlannedAttempt {
  return { trigger: 'Scheduled', dueAt: nextAttemptAt ?? now, auto: automaticSoFar, generation: 0 };
}

/** A manual retry, allowed in any state and whether or not the subscription still exists (inferred, see above). */
export function manualRetry(notification: NotificationView, now: number): ManualRetry {
  return {
    status: 'Pending',
    next: null,
    attempt: { trigger: 'Manual', dueAt: now, auto: 0, generation: notification.generation + 1 },
  };
}

/** The state after an attempt ended with `outcome`; `schedule` is the retry schedule in seconds. */
export function next(
  notification: NotificationView,
  attempt: PlannedAttempt,
  outcome: Outcome,
  schedule: readonly number[],
): Transition {
  if (attempt.generation !== notification.generation) return { decided: false };
  // States and transitions: Pending -> Success on a 2xx answer.
  if (outcome.success) return { decided: true, status: 'Success', next: null };
  // Inferred: a manual retry ends Failure by its own failed attempt.
  if (attempt.trigger === 'Manual') return { decided: true, status: 'Failure', next: null };
  const made = attempt.auto + 1;
  const delay = schedule[made];
  // States and transitions: Pending -> Failure when the automatic attempts are exhausted.
  if (delay === undefined) return { decided: true, status: 'Failure', next: null };
  return {
    decided: true,
    status: 'Pending',
    next: { trigger: 'Scheduled', dueAt: attempt.dueAt + delay * MS, auto: made, generation: attempt.generation },
  };
}
