import { describe, expect, it } from 'vitest';
import { ExchangeRing } from '../ring.js';

describe('the exchange ring', () => {
  it('keeps everything, oldest first, until it is full', () => {
    const ring = new ExchangeRing<number>(3);
    expect(ring.items()).toEqual([]);
    ring.push(1);
    ring.push(2);
    expect(ring.items()).toEqual([1, 2]);
    expect({ size: ring.size, total: ring.total, dropped: ring.dropped }).toEqual({ size: 2, total: 2, dropped: 0 });
  });

  it('then keeps the last N items, oldest first, and counts every push', () => {
    const ring = new ExchangeRing<number>(3);
    for (let i = 1; i <= 10; i++) ring.push(i);
    expect(ring.items()).toEqual([8, 9, 10]);
    expect({ size: ring.size, total: ring.total, dropped: ring.dropped }).toEqual({ size: 3, total: 10, dropped: 7 });
  });

  it('keeps items whole (the same objects) and hands out a copy of its list', () => {
    const ring = new ExchangeRing<{ seq: number }>(2);
    const first = { seq: 1 };
    ring.push(first);
    const items = ring.items();
    items.pop();
    expect(ring.items()[0]).toBe(first);
  });

  it('holds at most its capacity however many items pass through', () => {
    const ring = new ExchangeRing<number>(1000);
    for (let i = 0; i < 100_000; i++) ring.push(i);
    const items = ring.items();
    expect(items).toHaveLength(1000);
    expect(items[0]).toBe(99_000);
    expect(items[999]).toBe(99_999);
    expect(ring.total).toBe(100_000);
  });

  it('works with a capacity of one', () => {
    const ring = new ExchangeRing<string>(1);
    ring.push('a');
    ring.push('b');
    expect(ring.items()).toEqual(['b']);
  });

  it('refuses a capacity that is not a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new ExchangeRing(bad)).toThrow(RangeError);
  });
});
