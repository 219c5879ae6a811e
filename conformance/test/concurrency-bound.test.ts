import { describe, expect, it } from 'vitest';
import { requestBound } from '../wire/client.js';

/**
 * The runner's request bound (`--concurrency`): never more tasks running than the bound, even when a new task asks
 * for a slot in the instant between a finishing task giving its slot back and the waiting task it woke taking it.
 */
describe('the runner concurrency bound', () => {
  it('never runs more tasks than its bound when a task arrives while a woken one is about to start', async () => {
    const bound = requestBound(1);
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const task = () => {
      running++;
      most = Math.max(most, running);
      return new Promise<void>((resolve) => {
        gates.push(() => {
          running--;
          resolve();
        });
      });
    };
    const done = [bound(task), bound(task)];
    await new Promise((r) => setImmediate(r));
    expect(running).toBe(1);
    gates.shift()!();
    // Ask for a slot at each of the next few microtask turns: one of them lands after the first task gave its slot
    // back and before the second (woken, queued) took it.
    for (let turn = 0; turn < 6; turn++) {
      done.push(bound(task));
      await null;
    }
    await new Promise((r) => setImmediate(r));
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(done);
    expect(most).toBe(1);
  });

  it('starts waiting tasks in the order they asked', async () => {
    const bound = requestBound(1);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => bound(async () => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('holds at least one slot', async () => {
    expect(requestBound(0).concurrency).toBe(1);
    expect(requestBound(4).concurrency).toBe(4);
  });

  it('frees the slot of a task that failed', async () => {
    const bound = requestBound(1);
    await expect(bound(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(bound(async () => 'next')).resolves.toBe('next');
  });
});
