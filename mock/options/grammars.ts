import { durationHint, formatDuration, parseDuration } from '../../common/duration.js';
import { parseRate, type Rate } from '../rate-limit.js';
import type { Parsed } from './kinds.js';

/**
 * The grammars of the mock's options written as text (`--rate-limit 300/1s`, `--latency 50-200ms`, `--retry-schedule
 * 0,5s,5m`): each parser, and its inverse that writes a value back in the same grammar (a default in `--help` and in
 * the README's table). Every duration in them is read by common/duration.ts.
 */

/** A rate `N/window` or `off` (mock/rate-limit.ts), as the other parsers answer. */
export function parseRateOption(text: string): Parsed<Rate | null> {
  const r = parseRate(text);
  return r.ok ? { ok: true, value: r.rate } : r;
}

export const formatRate = (rate: Rate | null): string =>
  rate ? `${rate.limit}/${formatDuration(rate.windowMs)}` : 'off';

/**
 * Parses a latency: `off`, one duration (`100ms`, `1s`) or a range of two (`50-200ms`, `0.2-1s`, `500ms-2s`), in the
 * grammar of common/duration.ts with milliseconds for a bare number. A low end without a unit takes the high end's
 * (`50-200ms` is 50 to 200 ms, as it always was).
 */
export function parseLatency(text: string): Parsed<{ min: number; max: number } | null> {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0' || t === '') return { ok: true, value: null };
  const invalid = (why: string) => ({ ok: false as const, error: `invalid latency "${text}": ${why}` });
  const usage = `use e.g. 50-200ms, 100ms or 1s (${durationHint('ms')})`;
  const ends = t.split('-').map((end) => end.trim());
  if (ends.length > 2) return invalid(usage);
  const high = parseDuration(ends[ends.length - 1] ?? '', { unitless: 'ms' });
  if (!high.ok) return invalid(usage);
  let min = high.ms;
  if (ends.length === 2) {
    const low = parseDuration(ends[0] ?? '', { unitless: high.unit ?? 'ms' });
    if (!low.ok) return invalid(usage);
    min = low.ms;
  }
  if (high.ms < min) return invalid('the maximum is below the minimum');
  return { ok: true, value: { min, max: high.ms } };
}

export const formatLatency = (latency: { min: number; max: number } | null): string =>
  latency === null ? 'off' : latency.min === latency.max ? `${latency.max}ms` : `${latency.min}-${latency.max}ms`;

/**
 * Parses a retry schedule: comma-separated delays in the grammar of common/duration.ts (`0,5s,5m,30m,2h,1d`),
 * seconds for a bare number; the delays come back in seconds.
 */
export function parseRetrySchedule(text: string): Parsed<number[]> {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const part of parts) {
    const delay = parseDuration(part, { unitless: 's' });
    if (!delay.ok)
      return {
        ok: false,
        error: `invalid retry schedule entry "${part}": use durations like 0,5s,5m,2h (${durationHint('s')})`,
      };
    out.push(delay.ms / 1000);
  }
  if (out.length === 0) return { ok: false, error: 'the retry schedule needs at least one attempt' };
  return { ok: true, value: out };
}

/** Delays in seconds as `0,5s,5m,30m`: a bare 0, each other one in its largest whole unit. */
export const formatRetrySchedule = (seconds: readonly number[]): string =>
  seconds.map((s) => (s === 0 ? '0' : formatDuration(s * 1000))).join(',');
