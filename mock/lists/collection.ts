import type { ListField } from '../../spec/lists/fields.js';
import { columnKey, emptyValue, extractor, type ColumnKind, type ColumnSource, type Extractor } from './columns.js';
import type { CompiledFilter } from './filter/compile.js';
import {
  BudgetedLru,
  ENTRY_OVERHEAD_BYTES,
  standaloneBudget,
  stringBytes,
  type CacheAccount,
  type CacheBudget,
} from './cache-budget.js';
import { Doorkeeper } from './doorkeeper.js';
import { slotMarks } from './slot-marks.js';
import { slotComparator, type SortSpec } from './sort.js';
import { SortedOrder } from './sorted-order.js';

/**
 * The items of one list endpoint, indexed for fast list queries.
 *
 * Each item lives in a numbered slot. Derived values (lowercased strings, date millis, sort keys; see
 * `columns.ts`) are computed lazily per field, once, and kept per slot. Sorted orders are built lazily per sort
 * specification (at most `ORDER_CACHE_SIZE` of them) and then maintained incrementally on every mutation
 * (./sorted-order.ts), so a write never forces a full re-sort. The matching positions of recent (filter, sort) pairs
 * are cached too (`RESULT_CACHE_SIZE`), from the second request of a pair within a window on (./doorkeeper.ts:
 * never-repeated filters keep nothing); that cache is dropped on every mutation. Orders and matches also count
 * against a byte budget (`--cache-mb`, ./cache-budget.ts) through the account the collection is given (its
 * tenant's), which may drop them at any time: they are rebuilt on next use. The columns are not in the budget: they
 * are bounded by the field table (a few kinds per field), not by the variety of queries, and sorted orders read them.
 *
 * `version` increases on every mutation. Items are stored by reference: after changing an item object in place,
 * call `set(item)` again so the derived values and orders are refreshed.
 */
/**
 * Sorted orders kept per list (inferred, measured): a list's clients cycle through its sortable fields in both
 * directions (listSkus: 11 fields, 22 orders), and an LRU smaller than that cycle misses every time; with 16, the
 * never-repeated filters of bench list-100k-varied re-sorted 100,000 SKUs per request (p50 ~45 ms). Memory is bounded
 * by the byte budget; a write maintains each kept order (a binary search and a splice).
 */
const ORDER_CACHE_SIZE = 48;
const RESULT_CACHE_SIZE = 16;
/**
 * Uncached (filter, sort) pairs of a list remembered, so that the matches of one asked for again are kept (inferred:
 * between 256 and 512 other pairs apart; paging through a list or polling it repeats a pair at once). 1 KB per list
 * that was filtered.
 */
const RESULT_ADMISSION_WINDOW = 256;

interface Column {
  readonly extract: Extractor;
  readonly empty: unknown;
  readonly data: unknown[];
}

/** Estimated bytes of a sorted order: its typed array's (4 bytes per slot, and its room to grow). */
function orderBytes(key: string, order: SortedOrder): number {
  return ENTRY_OVERHEAD_BYTES + stringBytes(key) + order.byteLength;
}

/** Estimated bytes of cached matches: the typed array's own bytes. */
function matchBytes(key: string, matched: Int32Array): number {
  return ENTRY_OVERHEAD_BYTES + stringBytes(key) + matched.byteLength;
}

interface CollectionPage<T> {
  totalCount: number;
  results: T[];
}

export class ListCollection<T extends { id: string }> implements ColumnSource, Iterable<T> {
  private items: (T | undefined)[] = [];
  private ids: string[] = [];
  private slotById = new Map<string, number>();
  private freeSlots: number[] = [];
  private columns = new Map<string, Column>();
  private readonly orders: BudgetedLru<string, SortedOrder>;
  private readonly matches: BudgetedLru<string, Int32Array>;
  private mutations = 0;
  /** The budget the caches count against (the engine caches compiled filters for this collection there too). */
  readonly cacheBudget: CacheBudget;

  /** `account`: what the caches count against (a tenant's); a collection built alone gets a budget of its own. */
  constructor(items: Iterable<T> = [], account: CacheAccount = standaloneBudget().account()) {
    this.cacheBudget = account.budget;
    this.orders = new BudgetedLru(account, orderBytes, ORDER_CACHE_SIZE);
    this.matches = new BudgetedLru(account, matchBytes, RESULT_CACHE_SIZE, new Doorkeeper(RESULT_ADMISSION_WINDOW));
    for (const item of items) this.set(item);
    this.mutations = 0;
  }

  /** Increases on every mutation (`set`, `delete`, `replaceAll`, `clear`). */
  get version(): number {
    return this.mutations;
  }

  get size(): number {
    return this.slotById.size;
  }

  get(id: string): T | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.items[slot];
  }

  has(id: string): boolean {
    return this.slotById.has(id);
  }

  /** Inserts the item, or replaces the item with the same `id` (keeping its place in insertion order). */
  set(item: T): void {
    const id = item.id;
    if (typeof id !== 'string') throw new TypeError('ListCollection items need a string id');
    this.touch();
    const existing = this.slotById.get(id);
    if (existing !== undefined) {
      this.orders.forEach((order) => {
        order.remove(existing);
      });
      this.items[existing] = item;
      for (const col of this.columns.values()) col.data[existing] = col.extract(item);
      this.orders.forEach((order) => {
        order.insert(existing);
      });
      return;
    }
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.items.length;
      this.items.push(item);
      this.ids.push(id);
      for (const col of this.columns.values()) col.data.push(col.extract(item));
    } else {
      this.items[slot] = item;
      this.ids[slot] = id;
      for (const col of this.columns.values()) col.data[slot] = col.extract(item);
    }
    this.slotById.set(id, slot);
    const added = slot;
    this.orders.forEach((order) => {
      order.insert(added);
    });
    this.remeasureOrders();
  }

  /** Removes the item with this id; returns whether it existed. */
  delete(id: string): boolean {
    const slot = this.slotById.get(id);
    if (slot === undefined) return false;
    this.touch();
    this.orders.forEach((order) => {
      order.remove(slot);
    });
    this.remeasureOrders();
    this.slotById.delete(id);
    this.items[slot] = undefined;
    this.ids[slot] = '';
    for (const col of this.columns.values()) col.data[slot] = col.empty;
    this.freeSlots.push(slot);
    return true;
  }

  /** Replaces the whole content (a later item wins over an earlier one with the same id) and drops all caches. */
  replaceAll(items: Iterable<T>): void {
    this.items = [];
    this.ids = [];
    this.slotById = new Map();
    this.freeSlots = [];
    this.columns = new Map();
    this.orders.clear();
    for (const item of items) this.set(item);
    this.touch();
  }

  clear(): void {
    this.replaceAll([]);
  }

  /** Gives back every cached order and match to the budget (the collection's tenant left memory). */
  dropCaches(): void {
    this.orders.clear();
    this.matches.clear();
  }

  /** The items in insertion order (a replaced item keeps its place). */
  *values(): IterableIterator<T> {
    for (const slot of this.slotById.values()) yield this.items[slot]!;
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /**
   * Calls `fn` with each item in insertion order, as `values` yields them, without an iterator result per item: a
   * fan-out walks every subscription of its tenant for each event (bench noisy-neighbour).
   */
  forEach(fn: (item: T) => void): void {
    this.slotById.forEach((slot) => {
      fn(this.items[slot]!);
    });
  }

  /** The derived values of a field per slot (built on first use, then kept up to date). */
  column(field: ListField, kind: ColumnKind): readonly unknown[] {
    const key = columnKey(field, kind);
    let col = this.columns.get(key);
    if (!col) {
      const extract = extractor(field, kind);
      const empty = emptyValue(kind);
      const data: unknown[] = [];
      for (const item of this.items) data.push(item === undefined ? empty : extract(item));
      col = { extract, empty, data };
      this.columns.set(key, col);
    }
    return col.data;
  }

  /** The slots of all items in the given order (built on first use, then kept up to date). */
  private order(sort: SortSpec): SortedOrder {
    let order = this.orders.get(sort.cacheKey);
    if (!order) {
      order = new SortedOrder(slotComparator(sort, this, this.ids), this.slotById.values(), this.slotById.size);
      this.orders.set(sort.cacheKey, order);
    }
    return order;
  }

  /**
   * One page of the items matching `filter` in `sort` order, with the exact total count.
   * `filterKey` identifies the filter (same key = same predicate); when given, the matching positions of a query asked
   * for again are cached until the next mutation, so paging through the same query does not re-run the filter.
   */
  page(
    filter: CompiledFilter | null,
    sort: SortSpec,
    offset: number,
    limit: number,
    filterKey?: string,
  ): CollectionPage<T> {
    const slots = this.order(sort).view();
    const results: T[] = [];
    if (filter === null) {
      const end = Math.min(slots.length, offset + limit);
      for (let i = offset; i < end; i++) results.push(this.items[slots[i]!]!);
      return { totalCount: slots.length, results };
    }
    const cacheKey = filterKey === undefined ? undefined : `${sort.cacheKey}\u0000${filterKey}`;
    let matched = cacheKey === undefined ? undefined : this.matches.get(cacheKey);
    if (!matched) {
      // Evaluate in slot order (sequential memory access over the columns), then pick the hits in sort order.
      const test = filter.bind(this);
      const items = this.items;
      const hits = slotMarks(items.length);
      let count = 0;
      for (let slot = 0; slot < items.length; slot++) {
        const hit = items[slot] !== undefined && test(slot) ? 1 : 0;
        hits[slot] = hit;
        count += hit;
      }
      if (cacheKey === undefined || !this.matches.admits(cacheKey)) {
        // Not kept: only the hits up to the end of the page are picked.
        const end = Math.min(count, offset + limit);
        for (let i = 0, k = 0; i < slots.length && k < end; i++) {
          const slot = slots[i]!;
          if (hits[slot] !== 1) continue;
          if (k >= offset) results.push(this.items[slot]!);
          k++;
        }
        return { totalCount: count, results };
      }
      const buffer = new Int32Array(count);
      let k = 0;
      for (let i = 0; i < slots.length && k < count; i++) {
        const slot = slots[i]!;
        if (hits[slot] === 1) buffer[k++] = slot;
      }
      matched = buffer;
      this.matches.set(cacheKey, matched);
    }
    const end = Math.min(matched.length, offset + limit);
    for (let i = offset; i < end; i++) results.push(this.items[matched[i]!]!);
    return { totalCount: matched.length, results };
  }

  private touch(): void {
    this.mutations++;
    this.matches.clear();
  }

  /** Counts the orders at their new length (an item came or went); a budget over its bounds drops some. */
  private remeasureOrders(): void {
    if (this.orders.size > 0) this.orders.remeasureAll();
  }
}
