import { boundedCache } from '../bounded-cache.js';
import type { Rate } from '../rate-limit.js';

/**
 * Sources remembered by the throttle of failed key attempts (inferred): an entry is ~100 bytes, so 10,000 sources are
 * about 1 MB; beyond it the source least recently refused is forgotten (its next attempts start a full bucket again,
 * which costs a guesser the bucket's few tries, not a way around the rate).
 */
const SOURCES_REMEMBERED = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Failed admin-key and team-key attempts, throttled per source address (docs/DESIGN.md, "Team credentials (shared
 * sandbox)"): each source has a bucket of `rate.limit` failures refilled at `rate.limit` per window, so a client that
 * mistyped its key a few times is not slowed, while guessing runs at the refill rate at most. While a source's bucket
 * is empty, every key it sends is refused unread (429), so no guess is checked. Pure: the caller passes the time.
 */
export class KeyThrottle {
  private readonly sources = boundedCache<string, Bucket>(SOURCES_REMEMBERED);
  private readonly perMs: number;

  constructor(private readonly rate: Rate) {
    this.perMs = rate.limit / rate.windowMs;
  }

  /** Milliseconds before the source may try a key again (0: now). */
  waitMs(source: string, nowMs: number): number {
    const bucket = this.refilled(source, nowMs);
    return bucket === undefined || bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) / this.perMs);
  }

  /** Counts a failed attempt of the source. */
  failed(source: string, nowMs: number): void {
    const bucket = this.refilled(source, nowMs) ?? { tokens: this.rate.limit, at: nowMs };
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    this.sources.set(source, bucket);
  }

  /** The source's bucket refilled to now, if it failed before. */
  private refilled(source: string, nowMs: number): Bucket | undefined {
    const bucket = this.sources.get(source);
    if (!bucket) return undefined;
    bucket.tokens = Math.min(this.rate.limit, bucket.tokens + Math.max(0, nowMs - bucket.at) * this.perMs);
    bucket.at = nowMs;
    return bucket;
  }
}
