import { describe, expect, it } from 'vitest';
import { FairSlots, slotBounds } from '../fair-slots.js';
import { FakeTime } from './fake-time.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A task held until released; `started` says whether its slot came. */
function held(slots: FairSlots, tenant: string, endpoint: string, log: string[], key?: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const task = { started: false, release: () => release(), done: undefined as unknown as Promise<string | undefined> };
  task.done = slots.run(
    tenant,
    endpoint,
    async () => {
      task.started = true;
      log.push(`${tenant}:${endpoint}`);
      await gate;
      return 'sent';
    },
    key,
  );
  return task;
}

describe('FairSlots', () => {
  it('drops the waiting attempts of one key at once (a notification ended while it waited), and only those', async () => {
    const slots = new FairSlots({ global: 4, perTenant: 1, perEndpoint: 1 });
    const log: string[] = [];
    const first = held(slots, 'a', 'x', log, 'n0');
    const waiting = Array.from({ length: 5 }, (_, i) => held(slots, 'a', 'x', log, `n${i + 1}`));
    const twice = held(slots, 'a', 'y', log, 'n3');
    await tick();
    expect(slots.loadOf('a')).toEqual({ active: 1, waiting: 6 });
    expect(slots.cancelKey('a', 'n3')).toBe(2);
    expect(slots.cancelKey('a', 'n0')).toBe(0); // in flight: it finishes
    expect(slots.cancelKey('b', 'n1')).toBe(0);
    expect(await waiting[2]?.done).toBeUndefined();
    expect(await twice.done).toBeUndefined();
    expect(slots.loadOf('a')).toEqual({ active: 1, waiting: 4 });
    first.release();
    for (const t of waiting) t.release();
    await Promise.all([first.done, ...waiting.map((t) => t.done)]);
    expect(log).toEqual(['a:x', 'a:x', 'a:x', 'a:x', 'a:x']);
    expect(waiting[2]?.started).toBe(false);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    expect([...slots.busyTenants()]).toEqual([]);
  });

  it('derives the bounds: a quarter per tenant (at least 2), half of that per receiver, none above the one above', () => {
    expect(slotBounds(64)).toEqual({ global: 64, perTenant: 16, perEndpoint: 8 });
    expect(slotBounds(4)).toEqual({ global: 4, perTenant: 2, perEndpoint: 1 });
    expect(slotBounds(1)).toEqual({ global: 1, perTenant: 1, perEndpoint: 1 });
    expect(slotBounds(8, 100, 100)).toEqual({ global: 8, perTenant: 8, perEndpoint: 8 });
    expect(slotBounds(8, 3, null)).toEqual({ global: 8, perTenant: 3, perEndpoint: 2 });
  });

  it("holds a silent tenant to its share: another tenant's attempt starts at once, however many wait", async () => {
    const slots = new FairSlots({ global: 4, perTenant: 2, perEndpoint: 1 });
    const log: string[] = [];
    const silent = Array.from({ length: 50 }, (_, i) => held(slots, 'a', `http://silent-${i % 5}`, log));
    await tick();
    expect(silent.filter((t) => t.started)).toHaveLength(2);
    expect(slots.load).toEqual({ active: 2, waiting: 48 });
    const other = held(slots, 'b', 'http://b', log);
    await tick();
    expect(other.started).toBe(true);
    other.release();
    expect(await other.done).toBe('sent');
    for (const t of silent) t.release();
    await Promise.all(silent.map((t) => t.done));
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    expect([...slots.busyTenants()]).toEqual([]);
  });

  it('serves the waiting tenants in turn as slots free up, and the receivers of a tenant in turn', async () => {
    const slots = new FairSlots({ global: 1, perTenant: 1, perEndpoint: 1 });
    const log: string[] = [];
    const tasks = [
      held(slots, 'a', 'x', log),
      held(slots, 'a', 'x', log),
      held(slots, 'a', 'y', log),
      held(slots, 'a', 'x', log),
      held(slots, 'b', 'z', log),
      held(slots, 'c', 'z', log),
      held(slots, 'b', 'z', log),
    ];
    for (let i = 0; i < tasks.length; i++) {
      await tick();
      const running = tasks.filter((t) => t.started && !log.includes(`released ${tasks.indexOf(t)}`));
      expect(running.length).toBeLessThanOrEqual(1);
      const current = tasks.find((t, j) => t.started && !log.includes(`released ${j}`));
      if (!current) break;
      log.push(`released ${tasks.indexOf(current)}`);
      current.release();
      await current.done;
    }
    expect(log.filter((l) => !l.startsWith('released'))).toEqual(['a:x', 'b:z', 'c:z', 'a:y', 'b:z', 'a:x', 'a:x']);
  });

  it('drops a tenant’s waiting attempts on cancel (they resolve undefined and never start); those in flight finish', async () => {
    const slots = new FairSlots({ global: 2, perTenant: 1, perEndpoint: 1 });
    const log: string[] = [];
    const first = held(slots, 'a', 'x', log);
    const waiting = [held(slots, 'a', 'x', log), held(slots, 'a', 'y', log)];
    const other = held(slots, 'b', 'x', log);
    await tick();
    expect(slots.cancel('a')).toBe(2);
    expect(await Promise.all(waiting.map((t) => t.done))).toEqual([undefined, undefined]);
    first.release();
    other.release();
    expect(await first.done).toBe('sent');
    expect(await other.done).toBe('sent');
    await tick();
    expect(waiting.some((t) => t.started)).toBe(false);
    expect(log).toEqual(['a:x', 'b:x']);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new FairSlots(slotBounds(1));
    await expect(slots.run('a', 'x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      slots.run('a', 'x', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(await slots.run('a', 'x', async () => 7)).toBe(7);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('rests a slot after a result that asks it to: the caller hears at once, the next attempt starts after the rest', async () => {
    const time = new FakeTime();
    const slots = new FairSlots({ global: 4, perTenant: 2, perEndpoint: 1 }, undefined, time);
    const restAfter = (result: string) => (result === 'refused' ? 50 : 0);
    const started: string[] = [];
    const attempt = (endpoint: string, result: string) =>
      slots.run(
        'a',
        endpoint,
        async () => {
          started.push(`${endpoint}@${time.now()}`);
          return result;
        },
        undefined,
        restAfter,
      );
    const t0 = time.now();
    const [first, second, elsewhere] = [attempt('x', 'refused'), attempt('x', 'refused'), attempt('y', 'ok')];
    expect(await first).toBe('refused');
    expect(await elsewhere).toBe('ok');
    await tick();
    // The receiver's one slot rests; the tenant's other receiver was served meanwhile.
    expect(started).toEqual([`x@${t0}`, `y@${t0}`]);
    expect(slots.loadOf('a')).toEqual({ active: 1, waiting: 1 });
    await time.advance(49);
    await tick();
    expect(started).toHaveLength(2);
    await time.advance(1);
    expect(await second).toBe('refused');
    expect(started).toEqual([`x@${t0}`, `y@${t0}`, `x@${t0 + 50}`]);
    // A result that asks for no rest frees its slot before the caller hears of it.
    expect(await attempt('y', 'ok')).toBe('ok');
    expect(slots.loadOf('a')).toEqual({ active: 1, waiting: 0 });
    await time.advance(50);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
    expect([...slots.busyTenants()]).toEqual([]);
  });

  it("paces a tenant's starts when given a pace: bursts up to the limit, then one per refill; other tenants unpaced by it", async () => {
    const time = new FakeTime();
    const pace = { rate: { limit: 3, windowMs: 300 }, clock: time };
    const slots = new FairSlots({ global: 8, perTenant: 8, perEndpoint: 8 }, undefined, time, pace);
    const started: string[] = [];
    const attempt = (tenant: string) =>
      slots.run(tenant, 'x', async () => {
        started.push(`${tenant}@${time.now() - t0}`);
        return 'ok';
      });
    const t0 = time.now();
    const noisy = Array.from({ length: 6 }, () => attempt('a'));
    const other = attempt('b');
    await time.settle();
    expect(started).toEqual(['a@0', 'a@0', 'a@0', 'b@0']);
    expect(await other).toBe('ok');
    await time.advance(99);
    expect(started).toHaveLength(4);
    await time.advance(1);
    expect(started.slice(4)).toEqual(['a@100']);
    await time.advance(200);
    expect(started.slice(5)).toEqual(['a@200', 'a@300']);
    expect(await Promise.all(noisy)).toEqual(Array(6).fill('ok'));
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it("drops a paced tenant's waiting attempts at a reset, and its refill starts nothing of it", async () => {
    const time = new FakeTime();
    const slots = new FairSlots({ global: 4, perTenant: 4, perEndpoint: 4 }, undefined, time, {
      rate: { limit: 1, windowMs: 100 },
      clock: time,
    });
    let sent = 0;
    const attempts = Array.from({ length: 3 }, () =>
      slots.run('a', 'x', async () => {
        sent++;
        return 'ok';
      }),
    );
    await time.settle();
    expect(sent).toBe(1);
    expect(slots.cancel('a')).toBe(2);
    await time.advance(500);
    expect(sent).toBe(1);
    expect(await Promise.all(attempts)).toEqual(['ok', undefined, undefined]);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });
});
