/** A source of time in epoch milliseconds. The pure core never calls `Date.now()` itself. */
export interface Clock {
  now(): number;
}

/** Real time. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A tenant's virtual clock: real time plus an offset that only moves forward (`POST /__mock/clock`).
 * Each tenant has its own, so one CI job's time travel never touches another's.
 */
export class VirtualClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  /** Moves the clock forward; negative or non-finite amounts are refused by the caller. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** How far ahead of the base clock this clock runs. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Restores a persisted offset. */
  restore(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}
