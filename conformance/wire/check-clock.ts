import { AsyncLocalStorage } from 'node:async_hooks';
import type { LimitFunction } from 'p-limit';
import { HttpClient, requestBound, type ClientOptions, type Exchange, type RequestSpec } from './client.js';

/**
 * The time one check spends itself. Checks of a phase start together and share `--concurrency` request slots, so the
 * wall time of a check from its start also counts the time its requests queued behind other checks' requests: for a
 * read, nearly the whole phase. A clock leaves out the spans in which the check only waited (a request queued for a
 * slot, or shared work another check started, and none of its own requests in flight); its own requests, computing,
 * polling and waiting out a 429 count.
 */
export class CheckClock {
  private readonly started = performance.now();
  private waiting = 0;
  private inFlight = 0;
  private blockedSince: number | undefined;
  private blockedMs = 0;

  private settle(): void {
    const now = performance.now();
    const blocked = this.waiting > 0 && this.inFlight === 0;
    if (blocked && this.blockedSince === undefined) this.blockedSince = now;
    else if (!blocked && this.blockedSince !== undefined) {
      this.blockedMs += now - this.blockedSince;
      this.blockedSince = undefined;
    }
  }

  queued(): void {
    this.waiting++;
    this.settle();
  }

  admitted(): void {
    this.waiting--;
    this.inFlight++;
    this.settle();
  }

  finished(): void {
    this.inFlight--;
    this.settle();
  }

  /** Waits for work another check started (a memoised read): time spent only on that is not the check's own. */
  waitFor<T>(work: Promise<T>): Promise<T> {
    this.queued();
    const done = () => {
      this.waiting--;
      this.settle();
    };
    return work.then(
      (value) => {
        done();
        return value;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
  }

  /** Milliseconds since the check started, less the spans it only waited for a request slot. */
  ownMs(): number {
    const now = performance.now();
    const open = this.blockedSince === undefined ? 0 : now - this.blockedSince;
    return Math.max(0, Math.round(now - this.started - this.blockedMs - open));
  }
}

/** The clock of the check whose code is running (requests sent under a shared name still count for the check). */
const current = new AsyncLocalStorage<CheckClock>();

/** The clock of the running check, if any. */
export function currentClock(): CheckClock | undefined {
  return current.getStore();
}

/** Runs a check's code under its clock. */
export function underClock<T>(clock: CheckClock, fn: () => Promise<T>): Promise<T> {
  return current.run(clock, fn);
}

/** The runner's client, with the request slots accounted to the clock of the check that asked. */
export class TimedClient extends HttpClient {
  private readonly slots: LimitFunction;

  constructor(options: ClientOptions) {
    super(options);
    this.slots = requestBound(options.concurrency);
  }

  override send(check: string, spec: RequestSpec, bound = true): Promise<Exchange> {
    if (!bound) return super.send(check, spec, false);
    const clock = current.getStore();
    clock?.queued();
    return this.slots(async () => {
      clock?.admitted();
      try {
        return await super.send(check, spec, false);
      } finally {
        clock?.finished();
      }
    });
  }
}
