import type { Parsed } from './kinds.js';
import { parseRate, type Rate } from '../rate-limit.js';

/** Refused keys per source before 429 (`--key-failure-rate`): 10 at once, then one a second (mock/auth/key-throttle.ts). */
export const DEFAULT_KEY_FAILURE_RATE: Rate = { limit: 10, windowMs: 10_000 };

/** Parses `N/window` as `--rate-limit` does, without `off`: refused keys are always throttled. */
export function parseKeyFailureRate(text: string): Parsed<Rate> {
  const r = parseRate(text);
  if (!r.ok) return r;
  if (r.rate === null)
    return { ok: false, error: `invalid rate "${text}": refused keys are always throttled; use N/window` };
  return { ok: true, value: r.rate };
}
