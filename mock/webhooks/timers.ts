/** An opaque handle of a pending timeout. */
export type TimerHandle = unknown;

/**
 * The timer functions the scheduler uses, injected so a test can run a whole retry schedule on a fake clock in
 * milliseconds instead of waiting on real timers.
 */
export interface Timers {
  /** Calls `fn` once after `ms` milliseconds of real time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Calls `fn` on the next turn of the event loop. */
  setImmediate(fn: () => void): void;
}

/** Node's timers. Timeouts are unref'd: a scheduled retry never keeps the process alive on its own. */
export const realTimers: Timers = {
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  setImmediate(fn) {
    setImmediate(fn);
  },
};
