import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BudgetedLru, CacheBudget } from '../cache-budget.js';
import { ListCollection } from '../collection.js';
import { Doorkeeper } from '../doorkeeper.js';
import { runList } from '../engine.js';
import { getCompiledFilter } from '../filter/cache.js';
import type { ListQuery } from '../query.js';
import { ASSETS, FIELDS as ASSET_FIELDS, type Asset } from './fixtures.js';
import { FIELDS, exprArb, itemsArb, random, render, type Item } from './filter-model.js';

/** `count` distinct keys none of the tests asks for otherwise. */
const others = (count: number, tag = 'other') => Array.from({ length: count }, (_, i) => `${tag} ${i}`);

describe('a doorkeeper', () => {
  it('refuses a key asked for the first time and admits it when asked for again', () => {
    const door = new Doorkeeper(8);
    expect(door.admit('name[Contains]abc')).toBe(false);
    expect(door.admit('name[Contains]abc')).toBe(true);
    expect(door.admit('name[Contains]abc')).toBe(true);
    expect(door.admit('name[Contains]abd')).toBe(false);
  });

  it('remembers a key while at least `window` other keys are asked for, whenever it came', () => {
    for (let before = 0; before < 20; before++) {
      const door = new Doorkeeper(16);
      for (const key of others(before, 'before')) door.admit(key);
      door.admit('kept');
      for (const key of others(16)) door.admit(key);
      expect(door.admit('kept'), `after ${before} keys`).toBe(true);
    }
  });

  it('forgets a key once more than twice `window` other keys were asked for', () => {
    const door = new Doorkeeper(16);
    door.admit('forgotten');
    for (const key of others(33)) door.admit(key);
    expect(door.admit('forgotten')).toBe(false);
  });

  it('keeps a key asked for steadily, however many others come between', () => {
    const door = new Doorkeeper(16);
    door.admit('steady');
    for (let round = 0; round < 50; round++) {
      for (const key of others(12, `round ${round}`)) door.admit(key);
      expect(door.admit('steady'), `round ${round}`).toBe(true);
    }
  });

  it('takes few keys never asked for as asked for: under 2% of 10,000', () => {
    const door = new Doorkeeper(256);
    let mistaken = 0;
    for (const key of others(10_000, 'name[Contains]')) if (door.admit(key)) mistaken++;
    expect(mistaken).toBeLessThan(200);
  });

  it('tells apart keys of any text, the empty one included', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 20 }), (keys) => {
        const door = new Doorkeeper(64);
        const first = keys.map((key) => door.admit(key));
        expect(first.filter(Boolean).length).toBeLessThanOrEqual(1);
        expect(keys.map((key) => door.admit(key))).toEqual(keys.map(() => true));
      }),
      { numRuns: 100 },
    );
  });

  it('needs a window of at least one key', () => {
    expect(() => new Doorkeeper(0)).toThrow(RangeError);
  });
});

describe('a budgeted cache with an admission policy', () => {
  it('tells its caller to keep a value from its second miss on, counting each refusal in the budget', () => {
    const budget = new CacheBudget(1000);
    const cache = new BudgetedLru<string, number>(budget.account(), (_key, bytes) => bytes, 10, new Doorkeeper(8));
    expect(cache.admits('a')).toBe(false);
    expect(cache.admits('b')).toBe(false);
    expect(cache.admits('a')).toBe(true);
    expect(budget.figures()).toMatchObject({ refused: 2, entries: 0 });
  });

  it('tells its caller to keep every value without one', () => {
    const budget = new CacheBudget(1000);
    const cache = new BudgetedLru<string, number>(budget.account(), (_key, bytes) => bytes);
    expect(cache.admits('a')).toBe(true);
    expect(budget.figures().refused).toBe(0);
  });
});

/** A collection of the example assets counted in a budget of its own, and that budget. */
function assets(): { list: ListCollection<Asset>; budget: CacheBudget } {
  const budget = new CacheBudget(64 * 1024 * 1024);
  return { list: new ListCollection<Asset>(ASSETS, budget.account()), budget };
}

function page<T extends { id: string }>(list: ListCollection<T> | T[], fields: typeof FIELDS, query: ListQuery) {
  const result = runList(list, fields, query);
  if (!result.ok) throw new Error(result.error.detail);
  return { ids: result.value.results.map((item) => item.id), totalCount: result.value.totalCount };
}

describe('a list collection under the admission policy', () => {
  const query = { sortBy: '-name', filterBy: 'name[Contains]a', pageSize: 2 };

  it("keeps a query's matches and compiled filter from its second request on, nothing for one asked once", () => {
    const { list, budget } = assets();
    page(list, ASSET_FIELDS, query);
    // The sorted order is kept at once (a sort repeats); the matches and the compiled filter are refused.
    expect(budget.figures()).toMatchObject({ entries: 1, refused: 2 });
    page(list, ASSET_FIELDS, query);
    expect(budget.figures()).toMatchObject({ entries: 3, refused: 2 });
    page(list, ASSET_FIELDS, { ...query, pageNumber: 2 });
    expect(budget.figures()).toMatchObject({ entries: 3, refused: 2 });
  });

  it('answers a query asked once as it answers it from its kept matches, on every page', () => {
    const { list } = assets();
    const fresh = () => assets().list;
    for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
      const asked = { ...query, pageNumber };
      const once = page(fresh(), ASSET_FIELDS, asked);
      page(list, ASSET_FIELDS, asked);
      page(list, ASSET_FIELDS, asked);
      expect(page(list, ASSET_FIELDS, asked), `page ${pageNumber}`).toEqual(once);
    }
  });

  it('admits a query asked again after a write at once, with the write in its answer', () => {
    const { list, budget } = assets();
    page(list, ASSET_FIELDS, query);
    list.set({ ...ASSETS[0]!, id: 'z', name: 'zeta valve' });
    expect(page(list, ASSET_FIELDS, query)).toEqual({ ids: ['z', 'd'], totalCount: 5 });
    expect(budget.figures().refused).toBe(2);
    list.delete('z');
    expect(page(list, ASSET_FIELDS, { ...query, pageNumber: 1 })).toEqual({ ids: ['d', 'b'], totalCount: 4 });
  });

  it('answers any filter, sort and page the same on its first, second and third request as a plain array', () => {
    const scenario = itemsArb.chain((items) =>
      fc.record({
        items: fc.constant(items),
        expr: exprArb(items, 2),
        seed: fc.integer(),
        sortBy: fc.constantFrom('name', '-score', 'createdAt,-id', '-count,name'),
        pageSize: fc.integer({ min: 1, max: 12 }),
        pageNumber: fc.integer({ min: 1, max: 4 }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ items, expr, seed, sortBy, pageSize, pageNumber }) => {
        const asked = { filterBy: render(expr, random(seed)), sortBy, pageSize, pageNumber };
        const expected = page<Item>(items, FIELDS, asked);
        const list = new ListCollection<Item>(items, new CacheBudget(1024 * 1024).account());
        for (let request = 1; request <= 3; request++)
          expect(page(list, FIELDS, asked), `request ${request}`).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the compiled filter cache under the admission policy', () => {
  it('compiles a filter asked once without keeping it, and keeps it from its second request on', () => {
    const budget = new CacheBudget(1024 * 1024);
    const first = getCompiledFilter('name[Contains]pump', ASSET_FIELDS, 'insensitive', 'sensitive', budget);
    expect(first.ok).toBe(true);
    expect(budget.figures()).toMatchObject({ entries: 0, refused: 1 });
    const second = getCompiledFilter('name[Contains]pump', ASSET_FIELDS, 'insensitive', 'sensitive', budget);
    const third = getCompiledFilter('name[Contains]pump', ASSET_FIELDS, 'insensitive', 'sensitive', budget);
    expect(third).toBe(second);
    expect(budget.figures()).toMatchObject({ entries: 1, refused: 1 });
  });
});
