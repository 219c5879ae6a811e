import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedOrder } from '../sorted-order.js';

/** Slots ordered by a key per slot, ties by slot number (a total order, as the list engine's comparators are). */
const byKey = (keys: readonly number[]) => (x: number, y: number) => keys[x]! - keys[y]! || x - y;

describe('a sorted order', () => {
  it('holds the given slots sorted by its comparator', () => {
    const order = new SortedOrder(byKey([30, 10, 20, 10]), [0, 1, 2, 3], 4);
    expect([...order.view()]).toEqual([1, 3, 2, 0]);
    expect(order.length).toBe(4);
    expect(order.byteLength).toBe(16);
  });

  it('stays sorted through any inserts and removes, as a sorted copy of the slots it holds', () => {
    const step = fc.record({ insert: fc.boolean(), slot: fc.nat(60) });
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 61, maxLength: 61 }),
        fc.array(step),
        (keys, steps) => {
          const compare = byKey(keys);
          const held = new Set([0, 1, 2]);
          const order = new SortedOrder(compare, held, held.size);
          for (const { insert, slot } of steps) {
            if (insert && !held.has(slot)) {
              order.insert(slot);
              held.add(slot);
            } else if (!insert) {
              order.remove(slot);
              held.delete(slot);
            }
            expect([...order.view()]).toEqual([...held].sort(compare));
          }
          expect(order.byteLength).toBeGreaterThanOrEqual(4 * held.size);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds a slot to remove even when its key changed since it was inserted', () => {
    const keys = [1, 2, 3, 4];
    const order = new SortedOrder(byKey(keys), [0, 1, 2, 3], 4);
    keys[1] = 9;
    order.remove(1);
    expect([...order.view()]).toEqual([0, 2, 3]);
  });
});
