import type { Clock } from '../../clock.js';
import type { TimerHandle, Timers } from '../timers.js';

/** Most turns `settle` takes before it gives up: a loop that never settles is a bug, not a slow test. */
const MAX_TURNS = 1000;

/** One turn of the real event loop: every promise continuation queued so far runs (no time is waited for). */
const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Real time and timers by hand, for socket-free tests of the scheduler and the engine: time moves only when the
 * test says so, a timeout fires only when time reaches it, and a `setImmediate` runs only when the test settles.
 */
export class FakeTime implements Clock, Timers {
  private nowMs: number;
  private sequence = 0;
  private readonly timeouts = new Map<number, { readonly at: number; readonly fn: () => void }>();
  private immediates: (() => void)[] = [];

  constructor(start = Date.UTC(2026, 0, 5, 8, 0, 0)) {
    this.nowMs = start;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.sequence;
    this.timeouts.set(id, { at: this.nowMs + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timeouts.delete(handle as number);
  }

  setImmediate(fn: () => void): void {
    this.immediates.push(fn);
  }

  /** Instants the pending timeouts fire at, earliest first. */
  get timeoutsAt(): number[] {
    return [...this.timeouts.values()].map((t) => t.at).sort((a, b) => a - b);
  }

  /** Callbacks waiting for the next turn. */
  get pendingImmediates(): number {
    return this.immediates.length;
  }

  /** Runs the callbacks queued for the next turn (not the ones they queue). */
  runImmediates(): void {
    const due = this.immediates;
    this.immediates = [];
    for (const fn of due) fn();
  }

  /**
   * Lets the code under test run to rest without moving time: alternates real turns of the event loop (promise
   * continuations, e.g. a fake transport's answers) with the queued immediates, until neither is left.
   */
  async settle(): Promise<void> {
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      await realTurn();
      if (this.immediates.length === 0) return;
      this.runImmediates();
    }
    throw new Error(`not settled after ${MAX_TURNS} turns`);
  }

  /** Moves time forward by `ms`, firing each timeout at its instant in order and settling after each. */
  async advance(ms: number): Promise<void> {
    const target = this.nowMs + ms;
    await this.settle();
    for (let fired = 0; fired < MAX_TURNS; fired++) {
      const next = this.earliestBy(target);
      if (!next) {
        this.nowMs = target;
        return;
      }
      this.timeouts.delete(next.id);
      this.nowMs = Math.max(this.nowMs, next.at);
      next.fn();
      await this.settle();
    }
    throw new Error(`more than ${MAX_TURNS} timeouts fired in one advance`);
  }

  private earliestBy(limit: number): { id: number; at: number; fn: () => void } | undefined {
    let found: { id: number; at: number; fn: () => void } | undefined;
    for (const [id, t] of this.timeouts) if (t.at <= limit && (!found || t.at < found.at)) found = { id, ...t };
    return found;
  }
}
