import { setTimeout as sleep } from 'node:timers/promises';

/** A request rate: `limit` requests per `windowMs`. */
export interface PaceRate {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The rate the runner allows itself per tenant unless told otherwise: the mock's default limit, 300 requests per
 * second (inferred: Limits says only that a per-tenant limit exists; the number and window are not shown).
 */
export const DEFAULT_PACE: PaceRate = { limit: 300, windowMs: 1000 };

/**
 * Shares of the assumed limit the pacer uses: a smaller burst and a slightly slower refill than the target's bucket,
 * so requests that reach the target later than they were sent (or several at once) still find a token (inferred).
 */
const BURST_SHARE = 0.8;
const RATE_SHARE = 0.95;

/** What a pacer needs of time: a monotonic clock in ms and a sleep (injected by tests). */
interface PacerTime {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_TIME: PacerTime = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/**
 * A client-side token bucket that keeps one tenant's requests under the rate limit the runner assumes, so a run does
 * not meet the 429s it would then have to wait out (Limits: exceeding the limit returns 429; the caller retries after
 * the indicated delay). A 429 met anyway means the assumption was too high or the tenant's budget was spent by
 * others: the pacer then waits the indicated delay and halves its rate and burst (inferred).
 */
export class Pacer {
  private tokens: number;
  private burst: number;
  private perMs: number;
  private updatedAt: number;
  private pausedUntil = 0;
  private starved = false;
  /** Takes in order: each waits for the one before it, so a burst of callers is spread, never stampeded. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    rate: PaceRate,
    private readonly time: PacerTime = REAL_TIME,
  ) {
    this.burst = Math.max(1, Math.floor(rate.limit * BURST_SHARE));
    this.perMs = (rate.limit * RATE_SHARE) / rate.windowMs;
    this.tokens = this.burst;
    this.updatedAt = time.now();
  }

  /** Waits until a request may be sent, and counts it. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.next());
    this.queue = turn;
    return turn;
  }

  /** Whether a request is waiting for its pace now (the client has time to spare). */
  get waiting(): boolean {
    return this.starved;
  }

  /** The target answered 429 although paced: wait the indicated delay, and go at half the rate from then on. */
  limited(retryAfterMs: number): void {
    const now = this.time.now();
    // Requests in flight together meet the same exhaustion: one 429 of a pause is enough to learn from.
    if (now < this.pausedUntil) return;
    this.pausedUntil = now + retryAfterMs;
    this.burst = Math.max(1, Math.floor(this.burst / 2));
    this.perMs /= 2;
    this.tokens = 0;
    this.updatedAt = this.pausedUntil;
  }

  private refill(now: number): void {
    if (now <= this.updatedAt) return;
    this.tokens = Math.min(this.burst, this.tokens + (now - this.updatedAt) * this.perMs);
    this.updatedAt = now;
  }

  private async next(): Promise<void> {
    for (;;) {
      const now = this.time.now();
      if (now < this.pausedUntil) {
        await this.time.sleep(this.pausedUntil - now);
        continue;
      }
      this.refill(now);
      if (this.tokens >= 1) {
        this.tokens -= 1;
        this.starved = false;
        return;
      }
      this.starved = true;
      await this.time.sleep(Math.max(1, Math.ceil((1 - this.tokens) / this.perMs)));
    }
  }
}
