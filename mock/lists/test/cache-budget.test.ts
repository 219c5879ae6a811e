import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BudgetedLru, CacheBudget, type CacheAccount } from '../cache-budget.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import { ASSETS, FIELDS, type Asset } from './fixtures.js';

/** A cache whose values are their own size in bytes (no overhead), so the arithmetic of a test is plain. */
const sized = (account: CacheAccount, capacity?: number) =>
  new BudgetedLru<string, number>(account, (_key, bytes) => bytes, capacity);

/** The keys a cache still holds, of those asked for. */
const held = (cache: BudgetedLru<string, number>, keys: string[]) => keys.filter((k) => cache.peek(k) !== undefined);

describe('a cache budget', () => {
  it('drops the least recently used value of any tenant once the total would exceed it', () => {
    const budget = new CacheBudget(1000);
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(() => sized(budget.account()));
    a!.set('a', 200);
    b!.set('b', 200);
    c!.set('c', 200);
    d!.set('d', 200);
    expect(a!.get('a')).toBe(200); // now the most recently used: b is the least
    e!.set('e', 250);
    expect([a, b, c, d, e].map((cache, i) => cache!.peek('abcde'[i]!) !== undefined)).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
    expect(budget.figures()).toMatchObject({ limitBytes: 1000, usedBytes: 1050 - 200, entries: 4, evictions: 1 });
  });

  it('keeps each tenant within a quarter of it, dropping that tenant’s own oldest values, not others’', () => {
    const budget = new CacheBudget(1000);
    expect(budget.shareBytes).toBe(250);
    const quiet = sized(budget.account());
    const busy = sized(budget.account());
    quiet.set('q', 200);
    for (let i = 0; i < 10; i++) busy.set(`filter ${i}`, 100);
    expect(held(busy, ['filter 7', 'filter 8', 'filter 9'])).toEqual(['filter 8', 'filter 9']);
    expect(busy.size).toBe(2);
    expect(quiet.get('q')).toBe(200);
    expect(budget.figures().usedBytes).toBe(400);
  });

  it('does not keep a value larger than one tenant’s share, and keeps what it held', () => {
    const budget = new CacheBudget(1000);
    const cache = sized(budget.account());
    expect(cache.set('small', 10)).toBe(true);
    expect(cache.set('huge', 251)).toBe(false);
    expect(cache.peek('huge')).toBeUndefined();
    expect(cache.get('small')).toBe(10);
    expect(budget.figures()).toMatchObject({ usedBytes: 10, entries: 1 });
  });

  it('bounds a cache by count too, dropping its own least recently used value', () => {
    const budget = new CacheBudget(10_000);
    const cache = sized(budget.account(), 2);
    cache.set('x', 1);
    cache.set('y', 1);
    cache.get('x');
    cache.set('z', 1);
    expect(held(cache, ['x', 'y', 'z'])).toEqual(['x', 'z']);
    expect(budget.figures()).toMatchObject({ usedBytes: 2, entries: 2 });
  });

  it('gives every byte back when a cache is cleared or a value replaced', () => {
    const budget = new CacheBudget(1000);
    const cache = sized(budget.account());
    cache.set('a', 100);
    cache.set('a', 30);
    expect(budget.figures()).toMatchObject({ usedBytes: 30, entries: 1 });
    cache.set('b', 40);
    cache.clear();
    expect(budget.figures()).toMatchObject({ usedBytes: 0, entries: 0 });
  });

  it('never exceeds the total nor a share, and counts exactly what the caches hold, whatever the operations', () => {
    const op = fc.record({
      cache: fc.nat(5),
      kind: fc.constantFrom('set', 'get', 'delete', 'clear'),
      key: fc.nat(20),
      bytes: fc.integer({ min: 0, max: 400 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1200 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
        const budget = new CacheBudget(limit);
        const accounts = [budget.account(), budget.account(), budget.account()];
        // Six caches over three tenants; a shadow of what each should hold checks the accounting.
        const caches = [0, 1, 2, 3, 4, 5].map((i) => sized(accounts[i % 3]!, i === 5 ? 3 : undefined));
        const values = caches.map(() => new Map<string, number>());
        for (const { cache, kind, key, bytes } of ops) {
          const c = caches[cache]!;
          const k = `k${key}`;
          if (kind === 'set') c.set(k, bytes);
          else if (kind === 'get') c.get(k);
          else if (kind === 'delete') c.delete(k);
          else c.clear();
          for (let i = 0; i < caches.length; i++) {
            values[i]!.clear();
            for (let n = 0; n <= 20; n++) {
              const v = caches[i]!.peek(`k${n}`);
              if (v !== undefined) values[i]!.set(`k${n}`, v);
            }
          }
          const sum = (indices: number[]) =>
            indices.reduce((s, i) => s + [...values[i]!.values()].reduce((a, b) => a + b, 0), 0);
          const figures = budget.figures();
          expect(figures.usedBytes).toBeLessThanOrEqual(limit);
          expect(figures.usedBytes).toBe(sum([0, 1, 2, 3, 4, 5]));
          for (const [i, account] of accounts.entries()) {
            expect(account.usedBytes).toBeLessThanOrEqual(budget.shareBytes);
            expect(account.usedBytes).toBe(sum([i, i + 3]));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('a list collection under a tiny budget', () => {
  it('answers every query as one with room to spare, while its caches stay within the budget', () => {
    const roomy = new ListCollection<Asset>(ASSETS);
    const budget = new CacheBudget(2048);
    const tight = new ListCollection<Asset>(ASSETS, budget.account());
    const queries = [
      { sortBy: 'name' },
      { sortBy: '-name', filterBy: 'name[Contains]a' },
      { sortBy: 'createdAt', filterBy: 'name[Contains]e' },
      { sortBy: '-createdAt' },
      { sortBy: 'name', filterBy: 'name[Contains]a' },
    ];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        const ids = (c: ListCollection<Asset>) => {
          const r = runList(c, FIELDS, { pageSize: 1000, ...query });
          if (!r.ok) throw new Error(r.error.detail);
          return r.value.results.map((a) => a.id);
        };
        expect(ids(tight)).toEqual(ids(roomy));
        expect(budget.figures().usedBytes).toBeLessThanOrEqual(2048);
      }
      tight.set({ ...ASSETS[0]!, id: `added-${round}` });
      roomy.set({ ...ASSETS[0]!, id: `added-${round}` });
    }
    expect(budget.figures().evictions).toBeGreaterThan(0);
  });
});
