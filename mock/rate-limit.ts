import { durationHint, parseDuration } from '../common/duration.js';
/** A rate: `limit` requests per `windowMs`. */
export interface Rate {
  readonly limit: number;
  readonly windowMs: number;
}

/** Default rate limit (docs/DESIGN.md, "Defaults for what the reference leaves open": 300 requests per second per tenant; the reference gives no number). */
export const DEFAULT_RATE: Rate = { limit: 300, windowMs: 1000 };

/**
 * Parses `N/window` (`300/1s`, `10/500ms`, `1000/1m`, `300/s`) or `off` (null). The window is a duration in the
 * grammar of common/duration.ts (seconds for a bare number; a bare unit is one of it). Returns an error message on
 * bad input.
 */
export function parseRate(text: string): { ok: true; rate: Rate | null } | { ok: false; error: string } {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === 'none' || t === '0') return { ok: true, rate: null };
  const usage = `use N/window (e.g. 300/1s, 100/500ms, 1000/1m; the window is ${durationHint('s')}) or off`;
  const m = /^(\d+)\s*\/\s*(.+)$/.exec(t);
  if (!m) return { ok: false, error: `invalid rate limit "${text}": ${usage}` };
  const windowText = (m[2] ?? '').trim();
  const window = parseDuration(/^[a-z]/.test(windowText) ? `1${windowText}` : windowText, { unitless: 's' });
  if (!window.ok) return { ok: false, error: `invalid rate limit "${text}": ${usage}` };
  const limit = Number(m[1]);
  const windowMs = window.ms;
  if (!Number.isSafeInteger(limit) || limit < 1 || windowMs < 1)
    return { ok: false, error: `invalid rate limit "${text}": N and the window must be positive` };
  return { ok: true, rate: { limit, windowMs } };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Outcome of taking a token. */
export type Take = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

/**
 * Per-key token buckets (Limits: "a per-tenant rate limit exists"). A bucket holds `limit` tokens and refills
 * continuously at `limit` per window, so bursts up to the limit pass and the long-run rate is the limit.
 * Pure: the caller passes the time. Idle buckets are forgotten (a full bucket carries no information).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(private readonly rate: Rate) {
    this.perMs = rate.limit / rate.windowMs;
  }

  take(key: string, nowMs: number): Take {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.rate.limit, updatedAt: nowMs };
      this.buckets.set(key, bucket);
      if (this.buckets.size > 10_000) this.sweep(nowMs);
    } else {
      const elapsed = Math.max(0, nowMs - bucket.updatedAt);
      bucket.tokens = Math.min(this.rate.limit, bucket.tokens + elapsed * this.perMs);
      bucket.updatedAt = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true, remaining: Math.floor(bucket.tokens) };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.perMs) };
  }

  /** Forgets a key (tenant reset). */
  forget(key: string): void {
    this.buckets.delete(key);
  }

  /** Forgets every key (reset of all tenants). */
  clear(): void {
    this.buckets.clear();
  }

  private sweep(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (nowMs - bucket.updatedAt) * this.perMs >= this.rate.limit) this.buckets.delete(key);
    }
  }
}
