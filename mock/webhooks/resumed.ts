import type { TenantState } from '../store/tenant-state.js';
import { resumedAttempt, type PlannedAttempt } from './policy.js';

/**
 * The automatic attempt of each Pending notification of a tenant restored from a state file (policy.ts
 * `resumedAttempt`): at its `nextAttemptAt`, or now, its schedule going on after the automatic attempts it made.
 */
export function* resumedAttempts(tenant: TenantState, now: number): Generator<[string, PlannedAttempt]> {
  for (const notification of tenant.notifications) {
    if (notification.status !== 'Pending') continue;
    let auto = 0;
    for (const attempt of tenant.attemptsOf(notification.id)) if (attempt.trigger === 'Scheduled') auto++;
    const nextAt = notification.nextAttemptAt ? Date.parse(notification.nextAttemptAt) : null;
    yield [notification.id, resumedAttempt(nextAt, auto, now)];
  }
}
