import TinyQueue from 'tinyqueue';
import type { Clock } from '../clock.js';
import type { TimerHandle, Timers } from './timers.js';

/** Longest delay a Node timer accepts (about 24.8 days); a later due time is reached by re-arming. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Stale heap entries tolerated beyond the live ones before a rebuild (a small queue is never rebuilt). */
const STALE_SLACK = 64;

/** Anything with a due time (tenant time, epoch ms). */
export interface Due {
  readonly dueAt: number;
}

/** What the scheduler asks of its owner. */
export interface SchedulerHooks<J> {
  /** Whether jobs may still start (the engine is open and the tenant is still the live one). */
  live(): boolean;
  /** Starts a job that fell due (it has already left the queue); resolves once it has been made and recorded. */
  start(id: string, job: J): Promise<void>;
  /** The queue changed (the engine keeps a tenant with work from eviction). */
  changed(): void;
  /** A dispatch queued for the next turn of the event loop; the engine waits for it when asked to be idle. */
  track(dispatched: Promise<void>): void;
}

/**
 * What the engine asks of a tenant's schedule of automatic attempts: the in-memory `TenantScheduler` below, or a
 * schedule shared by several processes (mock/replication/shared-scheduler.ts), whose dispatches take a round trip.
 */
export interface JobScheduler<J extends Due> {
  /** Jobs waiting for their due time, as far as this process knows. */
  readonly size: number;
  add(id: string, job: J): void;
  cancel(id: string): void;
  /** Starts every job due now. */
  dispatch(): void | Promise<void>;
  /** The tenant clock jumped forward: starts what fell due. */
  afterClockJump(): void | Promise<void>;
  stop(): void;
  discard(): void;
}

/** Makes the schedule of one tenant (the engine's default: `new TenantScheduler(tenant.clock, timers, hooks)`). */
export type SchedulerFactory<J extends Due> = (
  clock: Clock,
  timers: Timers,
  hooks: SchedulerHooks<J>,
  org: string,
) => JobScheduler<J>;

/**
 * The due queue of one tenant: at most one job per notification id, each due at a tenant (virtual) time, and
 * the one timer that starts the earliest when it falls due.
 *
 * The jobs sit in a map by id and in a binary heap by due time (tinyqueue), so a dispatch reads only the jobs that
 * fell due and finding the earliest one left is a look at the top; scanning the whole map for both made every
 * dispatch cost the tenant's whole queue (a tenant with thousands of attempts to silent receivers waiting for their
 * retry spent ~0.3 ms of the event loop per dispatch, between other tenants' requests). A cancelled or replaced job
 * stays in the heap until it reaches the top, where it is recognised as stale (it is no longer its id's job) and
 * dropped; the heap is rebuilt from the map when stale entries outnumber live ones, so it stays within twice the queue.
 *
 * The timer runs on real time while the tenant clock moves at real speed between jumps; after a jump
 * (`afterClockJump`) its delay is stale, so it is dropped, every job now due starts, and the timer is armed again
 * for the earliest job left. A job due already starts on the next turn of the event loop (after the request that
 * queued it has been answered), once for every job queued in the same turn.
 */
export class TenantScheduler<J extends Due> implements JobScheduler<J> {
  private readonly queue = new Map<string, J>();
  private byDue = newDueHeap<J>([]);
  /** Order of queuing, for jobs due at the same time: they start in the order they were queued. */
  private queued = 0;
  /** The armed timer; an object so a stale callback recognises it is no longer the current one. */
  private timer: { readonly handle: TimerHandle } | null = null;
  private timerAt = Infinity;
  private kicked = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly hooks: SchedulerHooks<J>,
  ) {}

  /** Jobs waiting for their due time. */
  get size(): number {
    return this.queue.size;
  }

  /** Entries in the due heap, stale ones included (bounded by twice the queue: see `dropStale`). */
  get heldEntries(): number {
    return this.byDue.length;
  }

  /** Tenant time the timer is armed for (Infinity: none). */
  get armedAt(): number {
    return this.timerAt;
  }

  /** Queues a job (replacing the id's previous one): started on the next turn when due, else by the timer. */
  add(id: string, job: J): void {
    this.queue.set(id, job);
    this.byDue.push({ id, job, order: this.queued++ });
    this.dropStale();
    this.hooks.changed();
    if (job.dueAt <= this.clock.now()) this.kick();
    else if (job.dueAt < this.timerAt) this.arm(job.dueAt);
  }

  /**
   * Drops the id's job, if any. The timer stays armed for the time it was: fired early, it starts nothing and arms
   * again for the earliest job left (`dispatch`). Scanning the queue for a new earliest on every cancel made ending
   * many notifications at once quadratic (the Pending bound ends the oldest ones: ./pending-bound.ts).
   */
  cancel(id: string): void {
    if (!this.queue.delete(id)) return;
    if (this.queue.size === 0) this.disarm();
    this.dropStale();
    this.hooks.changed();
  }

  /** Starts every due job without waiting for any, then arms the timer for the earliest one left. */
  dispatch(): void {
    if (this.stopped || !this.hooks.live()) return;
    const now = this.clock.now();
    for (let top = this.liveTop(); top && top.job.dueAt <= now; top = this.liveTop()) {
      this.byDue.pop();
      this.queue.delete(top.id);
      this.hooks.start(top.id, top.job);
    }
    this.rearm();
  }

  /** The tenant clock jumped: the timer's real-time delay is stale; start what fell due and arm again. */
  afterClockJump(): void {
    this.disarm();
    this.dispatch();
  }

  /** Never starts anything again (engine closed, tenant replaced); the queue is kept for counting. */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Stops and forgets every job (tenant reset or evicted). */
  discard(): void {
    this.stop();
    this.queue.clear();
    this.byDue = newDueHeap<J>([]);
  }

  /** The heap's top once the stale entries above the earliest live job are dropped. */
  private liveTop(): Entry<J> | undefined {
    let top = this.byDue.peek();
    while (top && this.queue.get(top.id) !== top.job) {
      this.byDue.pop();
      top = this.byDue.peek();
    }
    return top;
  }

  /**
   * Rebuilds the heap from its live entries (their queuing order among equal due times kept) once stale ones
   * outnumber them: the heap stays within twice the queue.
   */
  private dropStale(): void {
    if (this.byDue.length <= 2 * this.queue.size + STALE_SLACK) return;
    this.byDue = newDueHeap(this.byDue.data.filter((entry) => this.queue.get(entry.id) === entry.job));
  }

  private kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    this.hooks.track(
      new Promise<void>((resolve) =>
        this.timers.setImmediate(() => {
          this.kicked = false;
          this.dispatch();
          resolve();
        }),
      ),
    );
  }

  private rearm(): void {
    const earliest = this.liveTop()?.job.dueAt ?? Infinity;
    if (earliest === Infinity) this.disarm();
    else if (earliest !== this.timerAt || !this.timer) this.arm(earliest);
    this.hooks.changed();
  }

  private arm(dueAt: number): void {
    this.disarm();
    if (this.stopped) return;
    const delay = Math.max(0, Math.min(dueAt - this.clock.now(), MAX_DELAY_MS));
    const timer = {
      handle: this.timers.setTimeout(() => {
        if (this.timer !== timer) return;
        this.timer = null;
        this.timerAt = Infinity;
        this.dispatch();
      }, delay),
    };
    this.timer = timer;
    this.timerAt = dueAt;
  }

  private disarm(): void {
    if (this.timer) this.timers.clearTimeout(this.timer.handle);
    this.timer = null;
    this.timerAt = Infinity;
  }
}

/** A job in the heap: its id, the job as queued, and the order it was queued in. */
interface Entry<J> {
  readonly id: string;
  readonly job: J;
  readonly order: number;
}

/** A min-heap of entries by due time, then by queuing order. */
function newDueHeap<J extends Due>(entries: Entry<J>[]): TinyQueue<Entry<J>> {
  return new TinyQueue(entries, (a, b) => a.job.dueAt - b.job.dueAt || a.order - b.order);
}
