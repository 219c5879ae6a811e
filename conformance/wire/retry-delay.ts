import type { RetryDelay, RetryDelayUnit } from '../../spec/decisions/index.js';

/**
 * Where a 429 tells its retry delay. Errors / Status and code pairs (429): "the caller retries after the indicated
 * delay"; Limits: "the header or field carrying the retry delay: not shown". So the delay is read from every form in
 * common use, `Retry-After` (RFC 9110 10.2.3) first, and the answer says which form carried it (inferred).
 */

/**
 * How a number tells the delay. `reset`: the instant of the reset in epoch seconds (or milliseconds) when that large,
 * else seconds from now (`X-RateLimit-Reset` is spelt both ways in the wild). Any form may also be an HTTP date.
 */
type Form = 'seconds' | 'milliseconds' | 'reset';

/** The unit a value was read in: a unit of the `retry-delay` decision, or epoch milliseconds (which has none). */
type ReadUnit = RetryDelayUnit | 'epoch-milliseconds';

/** Headers that may carry a retry delay, in the order they are looked for (names lower-case). */
const HEADERS: readonly (readonly [name: string, spelling: string, form: Form])[] = [
  ['retry-after', 'Retry-After', 'seconds'],
  ['ratelimit-reset', 'RateLimit-Reset', 'seconds'],
  ['x-ratelimit-reset-after', 'X-RateLimit-Reset-After', 'seconds'],
  ['x-ratelimit-reset-after-ms', 'X-RateLimit-Reset-After-Ms', 'milliseconds'],
  ['x-rate-limit-retry-after-ms', 'X-Rate-Limit-Retry-After-Ms', 'milliseconds'],
  ['x-ratelimit-retry-after-ms', 'X-RateLimit-Retry-After-Ms', 'milliseconds'],
  ['x-retry-after-ms', 'X-Retry-After-Ms', 'milliseconds'],
  ['x-retry-after', 'X-Retry-After', 'seconds'],
  ['x-ratelimit-reset', 'X-RateLimit-Reset', 'reset'],
  ['x-rate-limit-reset', 'X-Rate-Limit-Reset', 'reset'],
];

/** Members of the problem (or of its `parameters`) that may carry a retry delay, in the order they are looked for. */
const MEMBERS: readonly (readonly [name: string, form: Form])[] = [
  ['retryAfterMs', 'milliseconds'],
  ['retryAfterMillis', 'milliseconds'],
  ['retryAfterSeconds', 'seconds'],
  ['retryAfter', 'seconds'],
  ['retry_after_ms', 'milliseconds'],
  ['retry_after', 'seconds'],
];

/** A delay read from an answer, and where it was read. */
export interface IndicatedDelay {
  /** Milliseconds from now (never negative). */
  ms: number;
  /** Where it was read, for people: `Retry-After header (seconds)`, `parameters.retryAfterMs of the problem`. */
  source: string;
  /** The header and its unit, when a header carried it (what `opsapi learn` records as the `retry-delay` decision). */
  header?: RetryDelay;
}

/** What of an answer the delay is read from: its headers (lower-case names) and its parsed JSON body. */
interface Answer {
  headers: Record<string, string>;
  json?: unknown;
}

/** Epoch seconds are ten digits today; a delta of that size (over 31 years) is no delay. */
const EPOCH_SECONDS = 1e9;
const EPOCH_MS = 1e12;

/** A value in a form as milliseconds from `now`, with the unit it was read in; undefined when it is not one. */
function parse(raw: unknown, form: Form, now: number): { ms: number; unit: ReadUnit } | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) return parse(String(raw), form, now);
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    switch (form) {
      case 'milliseconds':
        return { ms: n, unit: 'milliseconds' };
      case 'seconds':
        return { ms: n * 1000, unit: 'seconds' };
      case 'reset':
        if (n >= EPOCH_MS) return { ms: Math.max(0, n - now), unit: 'epoch-milliseconds' };
        if (n >= EPOCH_SECONDS) return { ms: Math.max(0, n * 1000 - now), unit: 'epoch-seconds' };
        return { ms: n * 1000, unit: 'seconds' };
    }
  }
  const at = Date.parse(value);
  // A date long past is not a delay (a `Date` header copied by mistake, or a clock far off).
  if (Number.isNaN(at) || at < now - 60_000) return undefined;
  return { ms: Math.max(0, at - now), unit: 'http-date' };
}

/**
 * The `RateLimit` header of the IETF draft "RateLimit header fields for HTTP" (structured: `"policy";r=0;t=5`),
 * whose `t` parameter is the seconds until the quota resets.
 */
function structured(value: string | undefined): number | undefined {
  const t = value === undefined ? undefined : /(?:^|;)\s*t=(\d+)/.exec(value)?.[1];
  return t === undefined ? undefined : Number(t) * 1000;
}

/** How an unknown header with "retry" or "reset" in its name is spelt (names are case-insensitive). */
function spelt(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`);
}

/** The members of the problem body and of its `parameters`, with the prefix their source names. */
function bodies(json: unknown): [prefix: string, body: Record<string, unknown>][] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [];
  const out: [string, Record<string, unknown>][] = [['', json as Record<string, unknown>]];
  const parameters = (json as { parameters?: unknown }).parameters;
  if (typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters))
    out.push(['parameters.', parameters as Record<string, unknown>]);
  return out;
}

/** A delay read from a header: with the header and unit as a decision, unless the unit is none of the decision's. */
function fromHeader(spelling: string, read: { ms: number; unit: ReadUnit }): IndicatedDelay {
  const delay: IndicatedDelay = { ms: read.ms, source: `${spelling} header (${read.unit})` };
  if (read.unit !== 'epoch-milliseconds') delay.header = { header: spelling, unit: read.unit };
  return delay;
}

/** The form of a header not named above, guessed from its name and the size of its value. */
function guessed(name: string, value: string): Form {
  const n = Number(value.trim());
  if (n >= EPOCH_SECONDS) return 'reset';
  return /ms|milli/i.test(name) || n > 100_000 ? 'milliseconds' : 'seconds';
}

/**
 * The retry delay a 429 indicates, from the first form found: the headers named above (`Retry-After` first), the
 * `RateLimit` structured header, a delay member of the problem or of its `parameters`, and last any other header
 * whose name holds "retry" or "reset" (its unit guessed from its name and size). Undefined when none is found.
 */
export function indicatedDelay(answer: Answer, now = Date.now()): IndicatedDelay | undefined {
  const { headers } = answer;
  for (const [name, spelling, form] of HEADERS) {
    const read = parse(headers[name], form, now);
    if (read) return fromHeader(spelling, read);
  }
  const quota = structured(headers.ratelimit);
  if (quota !== undefined) return { ms: quota, source: 'RateLimit header (t=, seconds)' };
  for (const [prefix, body] of bodies(answer.json))
    for (const [name, form] of MEMBERS) {
      const read = parse(body[name], form, now);
      if (read) return { ms: read.ms, source: `${prefix}${name} of the problem (${read.unit})` };
    }
  for (const [name, value] of Object.entries(headers)) {
    if (!/retry|reset/i.test(name)) continue;
    const read = parse(value, guessed(name, value), now);
    if (read) return fromHeader(spelt(name.toLowerCase()), read);
  }
  return undefined;
}

/** The header and unit of a 429's retry delay, read from its headers (the `retry-delay` decision point). */
export function retryDelayOf(headers: Record<string, string>, now = Date.now()): RetryDelay | undefined {
  return indicatedDelay({ headers }, now)?.header;
}
