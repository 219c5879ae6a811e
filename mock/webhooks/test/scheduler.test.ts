import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock.js';
import { TenantScheduler, type Due } from '../scheduler.js';
import { FakeTime } from './fake-time.js';

const SECOND = 1000;
const MAX_DELAY_MS = 2 ** 31 - 1;

/** A scheduler on a tenant's virtual clock over fake real time, recording what it starts. */
function setUp() {
  const time = new FakeTime();
  const tenantClock = new VirtualClock(time);
  const started: string[] = [];
  const tracked: Promise<void>[] = [];
  let live = true;
  const scheduler = new TenantScheduler<Due & { name: string }>(tenantClock, time, {
    live: () => live,
    start: async (_id, job) => void started.push(job.name),
    changed: () => undefined,
    track: (p) => void tracked.push(p),
  });
  const at = (seconds: number) => tenantClock.now() + seconds * SECOND;
  return { time, tenantClock, scheduler, started, tracked, at, stopBeingLive: () => (live = false) };
}

describe('the per-tenant scheduler', () => {
  it('starts a job already due on the next turn, not at once, and every job queued in that turn together, the earliest due first', async () => {
    const { time, scheduler, started, tracked, at } = setUp();
    scheduler.add('a', { name: 'a', dueAt: at(0) });
    scheduler.add('b', { name: 'b', dueAt: at(-1) });
    expect(started).toEqual([]);
    expect(time.pendingImmediates).toBe(1);
    time.runImmediates();
    expect(started).toEqual(['b', 'a']);
    expect(scheduler.size).toBe(0);
    // The owner can wait for the dispatch (engine.idle).
    expect(tracked).toHaveLength(1);
    await Promise.all(tracked);
  });

  it('arms one timer, for the earliest job, and starts each job when real time reaches it', async () => {
    const { time, scheduler, started, at } = setUp();
    const first = at(5);
    const second = at(300);
    scheduler.add('late', { name: 'late', dueAt: second });
    scheduler.add('soon', { name: 'soon', dueAt: first });
    expect(scheduler.armedAt).toBe(first);
    expect(time.timeoutsAt).toEqual([first]);

    await time.advance(5 * SECOND - 1);
    expect(started).toEqual([]);
    await time.advance(1);
    expect(started).toEqual(['soon']);
    expect(time.timeoutsAt).toEqual([second]);

    await time.advance(295 * SECOND);
    expect(started).toEqual(['soon', 'late']);
    expect(scheduler.armedAt).toBe(Infinity);
    expect(time.timeoutsAt).toEqual([]);
  });

  it('keeps one job per id: queuing an id again replaces its job', async () => {
    const { time, scheduler, started, at } = setUp();
    scheduler.add('n', { name: 'first plan', dueAt: at(60) });
    scheduler.add('n', { name: 'second plan', dueAt: at(5) });
    expect(scheduler.size).toBe(1);
    await time.advance(60 * SECOND);
    expect(started).toEqual(['second plan']);
  });

  it('after a clock jump drops the stale timer, starts what fell due at once, and arms for the rest at its new delay', () => {
    const { time, tenantClock, scheduler, started, at } = setUp();
    const inFiveSeconds = at(5);
    const inAnHour = at(3600);
    scheduler.add('soon', { name: 'soon', dueAt: inFiveSeconds });
    scheduler.add('later', { name: 'later', dueAt: inAnHour });
    expect(time.timeoutsAt).toEqual([time.now() + 5 * SECOND]);

    tenantClock.advance(600 * SECOND);
    scheduler.afterClockJump();
    expect(started).toEqual(['soon']);
    expect(scheduler.armedAt).toBe(inAnHour);
    // One timer, on real time: the hour less the ten minutes jumped.
    expect(time.timeoutsAt).toEqual([time.now() + 3000 * SECOND]);
  });

  it('a jump past every job starts them all and leaves no timer', () => {
    const { time, tenantClock, scheduler, started, at } = setUp();
    for (const [name, seconds] of [
      ['x', 5],
      ['y', 300],
      ['z', 1800],
    ] as const)
      scheduler.add(name, { name, dueAt: at(seconds) });
    tenantClock.advance(7 * 24 * 3600 * SECOND);
    scheduler.afterClockJump();
    expect(started).toEqual(['x', 'y', 'z']);
    expect(time.timeoutsAt).toEqual([]);
  });

  it('reaches a due time beyond the longest Node timer by re-arming when the timer fires early', async () => {
    const { time, scheduler, started, at } = setUp();
    const inThirtyDays = at(30 * 24 * 3600);
    scheduler.add('far', { name: 'far', dueAt: inThirtyDays });
    expect(time.timeoutsAt).toEqual([time.now() + MAX_DELAY_MS]);
    await time.advance(MAX_DELAY_MS);
    expect(started).toEqual([]);
    expect(time.timeoutsAt).toEqual([inThirtyDays]);
    await time.advance(inThirtyDays - time.now());
    expect(started).toEqual(['far']);
  });

  it('cancelling a job disarms the timer when nothing else is queued', async () => {
    const { time, scheduler, started, at } = setUp();
    scheduler.add('n', { name: 'n', dueAt: at(5) });
    scheduler.cancel('n');
    expect(scheduler.size).toBe(0);
    expect(time.timeoutsAt).toEqual([]);
    await time.advance(10 * SECOND);
    expect(started).toEqual([]);
  });

  it('cancelling the earliest job keeps the timer, which then starts nothing and arms for the job left', async () => {
    const { time, scheduler, started, at } = setUp();
    const soon = at(5);
    const late = at(60);
    scheduler.add('soon', { name: 'soon', dueAt: soon });
    scheduler.add('late', { name: 'late', dueAt: late });
    scheduler.cancel('soon');
    scheduler.cancel('unknown');
    expect(scheduler.size).toBe(1);
    await time.advance(5 * SECOND);
    expect(started).toEqual([]);
    expect(scheduler.armedAt).toBe(late);
    await time.advance(55 * SECOND);
    expect(started).toEqual(['late']);
  });

  it('starts nothing once stopped (engine closed), and nothing while its owner is not live (tenant replaced)', async () => {
    const stopped = setUp();
    stopped.scheduler.add('n', { name: 'n', dueAt: stopped.at(5) });
    stopped.scheduler.stop();
    stopped.scheduler.add('now', { name: 'now', dueAt: stopped.at(0) });
    expect(stopped.time.pendingImmediates).toBe(0);
    await stopped.time.advance(10 * SECOND);
    expect(stopped.started).toEqual([]);
    expect(stopped.scheduler.size).toBe(2);

    const orphan = setUp();
    orphan.scheduler.add('n', { name: 'n', dueAt: orphan.at(0) });
    orphan.stopBeingLive();
    orphan.time.runImmediates();
    expect(orphan.started).toEqual([]);
  });

  it('discarding forgets every job (tenant reset or evicted)', () => {
    const { time, scheduler, at } = setUp();
    scheduler.add('a', { name: 'a', dueAt: at(5) });
    scheduler.add('b', { name: 'b', dueAt: at(50) });
    scheduler.discard();
    expect(scheduler.size).toBe(0);
    expect(time.timeoutsAt).toEqual([]);
  });

  it('starts jobs due at the same time in the order they were queued', async () => {
    const { time, scheduler, started, at } = setUp();
    const due = at(5);
    for (const name of ['c', 'a', 'd', 'b', 'e', 'f', 'g']) scheduler.add(name, { name, dueAt: due });
    await time.advance(5 * SECOND);
    expect(started).toEqual(['c', 'a', 'd', 'b', 'e', 'f', 'g']);
  });

  it('keeps its heap within twice the queue however often jobs are replaced or cancelled, and still starts the right ones', async () => {
    const { time, scheduler, started, at } = setUp();
    for (let round = 0; round < 50; round++)
      for (let n = 0; n < 200; n++) scheduler.add(`n${n}`, { name: `n${n}@${round}`, dueAt: at(1000 - round - n) });
    for (let n = 0; n < 150; n++) scheduler.cancel(`n${n}`);
    expect(scheduler.size).toBe(50);
    expect(scheduler.heldEntries).toBeLessThanOrEqual(2 * scheduler.size + 64);
    // The jobs left are the last queued of n150..n199, due at 951 - n seconds: n199's is the earliest.
    expect(scheduler.armedAt).toBe(at(1000 - 49 - 199));
    await time.advance(1000 * SECOND);
    expect(started).toEqual(Array.from({ length: 50 }, (_, k) => `n${199 - k}@49`));
  });
});
