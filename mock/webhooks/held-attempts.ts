import type { DeliveryLoad, FairSlots } from './fair-slots.js';
import { KeyedQueue } from './keyed-queue.js';

/**
 * What starting an attempt answers when the attempt is held instead: settled at once (it is not under way), one
 * promise for all of them (a fan-out to a silent receiver holds thousands per second).
 */
export const HELD: Promise<void> = Promise.resolve();

/**
 * A tenant's due attempts held back, per receiver (origin), in the order they fell due: an attempt whose receiver
 * already has a batch of the tenant's attempts waiting for a slot waits here instead, as one map entry and no
 * promise, until the batch moves on (the engine takes the next ones then, as many as there is room for).
 *
 * Why: in the slots, each waiting attempt is an attempt under way, with its promises; a fan-out to silent receivers
 * made them by the thousand per second, most of what the collector copied (bench noisy-neighbour). Held here, taking
 * the next and dropping any one are O(1) (./keyed-queue.ts), so a burst to a healthy receiver drains as fast as before
 * (bench webhooks), and ending the oldest by the thousand costs the ended ones only.
 */
export class HeldAttempts<Job> {
  private readonly byOrigin = new Map<string, KeyedQueue<Job>>();
  private count = 0;

  /** Attempts held, over every receiver. */
  get size(): number {
    return this.count;
  }

  hold(origin: string, id: string, job: Job): void {
    let lane = this.byOrigin.get(origin);
    if (!lane) {
      lane = new KeyedQueue();
      this.byOrigin.set(origin, lane);
    }
    if (lane.set(id, job)) this.count++;
  }

  /** Takes the longest-held attempt to a receiver, if any. */
  private take(origin: string): { readonly key: string; readonly value: Job } | undefined {
    const lane = this.byOrigin.get(origin);
    const first = lane?.shift();
    if (!lane || !first) return undefined;
    this.count--;
    if (lane.size === 0) this.byOrigin.delete(origin);
    return first;
  }

  /** Starts a receiver's held attempts, longest-held first, while `room(origin)` says there is room for one. */
  release(origin: string, room: (origin: string) => boolean, start: (id: string, job: Job) => void): void {
    while (this.byOrigin.has(origin) && room(origin)) {
      const next = this.take(origin);
      if (!next) return;
      start(next.key, next.value);
    }
  }

  /** Drops a notification's held attempt (it ended, or a manual retry replaces it). */
  drop(origin: string, id: string): void {
    const lane = this.byOrigin.get(origin);
    if (!lane?.delete(id)) return;
    this.count--;
    if (lane.size === 0) this.byOrigin.delete(origin);
  }
}

/** The slots' load with the held attempts counted as waiting (they wait for a slot as those in the slots do). */
export function loadWithHeld(slots: FairSlots, heldOf: (org: string) => number, orgs: Iterable<string>): DeliveryLoad {
  let waiting = slots.load.waiting;
  for (const org of orgs) waiting += heldOf(org);
  return {
    total: { active: slots.load.active, waiting },
    bounds: slots.bounds,
    *tenants() {
      for (const [org, load] of slots.busyTenants())
        yield [org, { active: load.active, waiting: load.waiting + heldOf(org) }];
    },
  };
}
