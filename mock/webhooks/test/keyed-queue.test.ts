import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../keyed-queue.js';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'shift' } | { kind: 'delete'; key: string };

const keyArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: keyArb, value: fc.integer() }),
  fc.constant({ kind: 'shift' as const }),
  fc.record({ kind: fc.constant('delete' as const), key: keyArb }),
);

describe('KeyedQueue', () => {
  it('takes entries in the order their keys were first queued; a value set again keeps its place', () => {
    const q = new KeyedQueue<number>();
    expect(q.set('a', 1)).toBe(true);
    expect(q.set('b', 2)).toBe(true);
    expect(q.set('a', 3)).toBe(false);
    expect(q.set('c', 4)).toBe(true);
    expect(q.size).toBe(3);
    expect(q.shift()).toMatchObject({ key: 'a', value: 3 });
    expect(q.shift()).toMatchObject({ key: 'b', value: 2 });
    expect(q.shift()).toMatchObject({ key: 'c', value: 4 });
    expect(q.shift()).toBeUndefined();
    expect(q.size).toBe(0);
  });

  it('removes any key, first, middle or last, and keeps the others in order', () => {
    const q = new KeyedQueue<number>();
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) q.set(key, i);
    expect(q.delete('a')).toBe(true);
    expect(q.delete('c')).toBe(true);
    expect(q.delete('e')).toBe(true);
    expect(q.delete('e')).toBe(false);
    expect(q.delete('c')).toBe(false);
    expect(q.set('a', 9)).toBe(true);
    expect([q.shift()?.key, q.shift()?.key, q.shift()?.key, q.shift()]).toEqual(['b', 'd', 'a', undefined]);
  });

  it('behaves as an array of [key, value] kept in first-queued order, under any sequence of operations', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 200 }), (ops) => {
        const q = new KeyedQueue<number>();
        const model: [string, number][] = [];
        for (const op of ops) {
          if (op.kind === 'set') {
            const at = model.findIndex(([k]) => k === op.key);
            if (at >= 0) model[at] = [op.key, op.value];
            else model.push([op.key, op.value]);
            q.set(op.key, op.value);
          } else if (op.kind === 'shift') {
            const expected = model.shift();
            const got = q.shift();
            expect(got && [got.key, got.value]).toEqual(expected);
          } else {
            const at = model.findIndex(([k]) => k === op.key);
            if (at >= 0) model.splice(at, 1);
            expect(q.delete(op.key)).toBe(at >= 0);
          }
          expect(q.size).toBe(model.length);
        }
        const rest: [string, number][] = [];
        for (let e = q.shift(); e; e = q.shift()) rest.push([e.key, e.value]);
        expect(rest).toEqual(model);
      }),
    );
  });

  it('takes the oldest remaining entry after most of its oldest were removed', () => {
    // The case a Map taken from the front handles slowly (see the class comment); its speed is measured by the bench.
    const q = new KeyedQueue<number>();
    for (let i = 0; i < 10_000; i++) q.set(`k${i}`, i);
    for (let i = 0; i < 9_990; i++) q.delete(`k${i}`);
    const first = q.shift();
    expect(first).toMatchObject({ key: 'k9990', value: 9990 });
    expect(q.size).toBe(9);
  });
});
