import { RateLimitedError, TransportError } from '../wire/client.js';
import { CheckClock, underClock } from '../wire/check-clock.js';
import { CheckContext, SkipSignal, type CheckDef, type RunContext } from '../context.js';
import type { CheckResult, Outcome, Precondition } from '../types.js';

/** What a check needs: a credential (every family but auth, whose checks send none or their own), then its own. */
function requirements(def: CheckDef): Precondition[] {
  return [...(def.family === 'auth' ? [] : (['token'] as Precondition[])), ...(def.requires ?? [])];
}

export function needsToken(def: CheckDef): boolean {
  return requirements(def).includes('token');
}

/** Whether every precondition of a check is met (else it is skipped without running). */
export function canRun(run: RunContext, def: CheckDef): boolean {
  return requirements(def).every((p) => !run.unavailable.has(p));
}

/** Runs one check (or skips it when a precondition is unmet) and returns its result. */
export async function runCheck(run: RunContext, def: CheckDef): Promise<CheckResult> {
  const clock = new CheckClock();
  const unmet = requirements(def)
    .filter((p) => run.unavailable.has(p))
    .map((p) => run.unavailable.get(p) as string);
  const c = new CheckContext(run, def);
  let outcome: Outcome;
  let reason: string | undefined;
  if (unmet.length) {
    outcome = 'skip';
    reason = unmet.join('; ');
  } else {
    try {
      await underClock(clock, () => def.run(c));
      if (c.failureCount > 0) outcome = 'fail';
      else if (c.covered > 0) outcome = 'pass';
      else {
        outcome = 'skip';
        reason = c.uncovered.length
          ? `the data cannot exercise it: ${c.uncovered.slice(0, 6).join('; ')}`
          : 'nothing to check';
      }
    } catch (error) {
      if (c.failureCount > 0) outcome = 'fail';
      else if (error instanceof SkipSignal) {
        outcome = 'skip';
        reason = error.reason;
      } else if (error instanceof RateLimitedError) {
        outcome = 'skip';
        reason = 'rate limited';
      } else {
        outcome = 'error';
        reason =
          error instanceof TransportError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
      }
    }
    if (outcome === 'pass')
      reason = `${c.covered} case${c.covered === 1 ? '' : 's'} checked${c.uncovered.length ? `; not exercised: ${c.uncovered.slice(0, 4).join('; ')}` : ''}`;
  }
  return {
    id: def.id,
    title: def.title,
    family: def.family,
    clause: def.clause,
    level: def.level,
    outcome,
    ...(reason !== undefined ? { reason: run.redactor.text(reason) } : {}),
    evidence: c.failures,
    failureCount: c.failureCount,
    durationMs: clock.ownMs(),
    ...(c.infoCount > 0 ? { info: [...c.infoLines], infoCount: c.infoCount } : {}),
  };
}
