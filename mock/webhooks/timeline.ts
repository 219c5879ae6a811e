import type { Job } from './runtime.js';
import type { AttemptOutcome } from './transport.js';

/** Where an attempt sits on the tenant's timeline, epoch ms of tenant time. */
export interface Placement {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly durationMs: number;
}

/**
 * Places an attempt on the tenant's timeline (inferred): it started when it was queued plus the real time that
 * passed until it was sent (slot wait included), but never before it was due, so a clock jump in between records
 * it at its due time and the history shows the schedule as it would have unfolded. It never ends after the
 * tenant's current time `now`.
 */
export function placeAttempt(job: Job, outcome: AttemptOutcome, now: number): Placement {
  const durationMs = Math.max(0, Math.round(outcome.endedAtMs - outcome.startedAtMs));
  let startedAt = Math.max(job.dueAt, job.queuedAt + Math.max(0, outcome.startedAtMs - job.queuedAtReal));
  let endedAt = startedAt + durationMs;
  if (endedAt > now) {
    endedAt = now;
    startedAt = now - durationMs;
  }
  return { startedAt, endedAt, durationMs };
}

/** The later of an ISO instant and an epoch-ms instant, as ISO (`msIso`: `ms` as ISO already, for a caller of many). */
export function laterIso(isoText: string, ms: number, msIso?: string): string {
  return Date.parse(isoText) >= ms ? isoText : (msIso ?? new Date(ms).toISOString());
}
