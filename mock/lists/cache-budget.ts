import type { Admission } from './doorkeeper.js';

/**
 * One byte budget for the list engine's caches (sorted orders, filter matches, compiled filters) over every tenant of
 * a mock (`--cache-mb`). Each cached value carries an estimate of its size; the budget keeps every value in one
 * least-recently-used list and each account (one per tenant) in a list of its own, so that
 * - the total never exceeds `limitBytes`: beyond it, the least recently used value of any tenant is dropped;
 * - no account holds more than `shareBytes` (a quarter of the total): beyond it, its own least recently used value
 *   is dropped, so one tenant's never-repeated filters cannot push every other tenant's caches out;
 * - a value larger than the share is not kept at all (it is used for the request that built it, then dropped);
 * - a cache with an admission policy (./doorkeeper.ts) keeps a value only from its second request on: the others are
 *   counted as `refused`.
 * Inferred throughout: the reference has no such setting. A dropped value is only work to redo: caches hold nothing
 * that cannot be recomputed from the items, so every answer stays the same whatever the budget.
 *
 * Why our own and not lru-cache (which the plain bounded caches of the mock use): its `maxSize`/`sizeCalculation`
 * bound one cache, while this budget is one recency order across many caches (every tenant's orders, matches and
 * filters), with a second bound per account and a count bound per cache on top, and the admission policy deciding
 * before a value is built, not after. Neither the cross-cache recency nor the per-account share can be expressed as
 * options of separate lru-cache instances.
 */

/** The share of the budget one account may hold (inferred: four tenants busy at once each keep a full working set). */
const SHARE_OF_TOTAL = 1 / 4;

/**
 * The budget of caches outside any mock (a collection built alone: unit tests, the event catalog), inferred: enough
 * for the orders and matches of a 100,000-item list, and a fixed number, so the list engine reads no environment
 * (a mock's budget comes from `--cache-mb` or the machine: mock/cache-memory.ts).
 */
const STANDALONE_BUDGET_BYTES = 64 * 1024 * 1024;

/** What a budget holds now (`GET /__mock/stats`). */
export interface CacheFigures {
  /** The total (`--cache-mb`), bytes. */
  readonly limitBytes: number;
  /** Most one tenant may hold, bytes. */
  readonly shareBytes: number;
  /** Estimated bytes of every value cached now (never above `limitBytes`). */
  readonly usedBytes: number;
  /** Values cached now. */
  readonly entries: number;
  /** Values dropped to stay within the budget since start. */
  readonly evictions: number;
  /** Values not kept since start: asked for once, not (yet) again (an admission policy, ./doorkeeper.ts). */
  readonly refused: number;
}

/** Something that holds cached values and lets the budget drop one (a `BudgetedLru`). */
interface Owner {
  forget(entry: Entry): void;
}

/** One cached value: a node of the budget's recency list and of its account's. */
interface Entry {
  readonly key: unknown;
  value: unknown;
  bytes: number;
  readonly owner: Owner;
  readonly account: CacheAccount;
  prev: Entry | null;
  next: Entry | null;
  accountPrev: Entry | null;
  accountNext: Entry | null;
}

/** A doubly linked recency list (oldest first) over one pair of an entry's links. */
class RecencyList {
  head: Entry | null = null;
  tail: Entry | null = null;

  constructor(private readonly inAccount: boolean) {}

  append(e: Entry): void {
    if (this.inAccount) {
      e.accountPrev = this.tail;
      e.accountNext = null;
      if (this.tail) this.tail.accountNext = e;
    } else {
      e.prev = this.tail;
      e.next = null;
      if (this.tail) this.tail.next = e;
    }
    if (!this.head) this.head = e;
    this.tail = e;
  }

  remove(e: Entry): void {
    const prev = this.inAccount ? e.accountPrev : e.prev;
    const next = this.inAccount ? e.accountNext : e.next;
    if (prev) {
      if (this.inAccount) prev.accountNext = next;
      else prev.next = next;
    } else this.head = next;
    if (next) {
      if (this.inAccount) next.accountPrev = prev;
      else next.prev = prev;
    } else this.tail = prev;
    if (this.inAccount) e.accountPrev = e.accountNext = null;
    else e.prev = e.next = null;
  }

  /** Marks an entry most recently used. */
  touch(e: Entry): void {
    if (this.tail === e) return;
    this.remove(e);
    this.append(e);
  }
}

/** The caches of one tenant (or of a mock's compiled filters): what its share is counted over. */
export class CacheAccount {
  /** Estimated bytes this account holds. */
  usedBytes = 0;
  readonly recency = new RecencyList(true);

  constructor(readonly budget: CacheBudget) {}

  /**
   * The least recently used entry of one of the account's caches (for that cache's count bound): the first of it in
   * the account's recency list. A walk, but only when a cache is full, over an account's few dozen entries.
   */
  oldestOf(owner: Owner): Entry | undefined {
    for (let e = this.recency.head; e; e = e.accountNext) if (e.owner === owner) return e;
    return undefined;
  }
}

export class CacheBudget {
  readonly shareBytes: number;
  private usedBytes = 0;
  private entries = 0;
  private evictions = 0;
  private refusals = 0;
  private readonly recency = new RecencyList(false);

  constructor(readonly limitBytes: number) {
    if (!Number.isFinite(limitBytes) || limitBytes < 0) throw new RangeError('a cache budget needs a size in bytes');
    this.shareBytes = Math.floor(limitBytes * SHARE_OF_TOTAL);
  }

  /** A new account (one per tenant). */
  account(): CacheAccount {
    return new CacheAccount(this);
  }

  figures(): CacheFigures {
    return {
      limitBytes: this.limitBytes,
      shareBytes: this.shareBytes,
      usedBytes: this.usedBytes,
      entries: this.entries,
      evictions: this.evictions,
      refused: this.refusals,
    };
  }

  /** Counts a value its cache's admission policy did not keep. */
  refuse(): void {
    this.refusals++;
  }

  /** Whether a value of this size may be kept at all. */
  fits(bytes: number): boolean {
    return bytes <= this.shareBytes;
  }

  /** Counts a new entry (most recently used), then drops least recently used ones until both bounds hold again. */
  admit(e: Entry): void {
    this.recency.append(e);
    e.account.recency.append(e);
    this.usedBytes += e.bytes;
    e.account.usedBytes += e.bytes;
    this.entries++;
    this.enforce(e.account);
  }

  /** Marks an entry most recently used (a cache hit). */
  touch(e: Entry): void {
    this.recency.touch(e);
    e.account.recency.touch(e);
  }

  /** Changes an entry's size (a sorted order that grew with its collection), then enforces the bounds. */
  resize(e: Entry, bytes: number): void {
    const delta = bytes - e.bytes;
    e.bytes = bytes;
    this.usedBytes += delta;
    e.account.usedBytes += delta;
    this.enforce(e.account);
  }

  /** Stops counting an entry (its cache dropped it). */
  release(e: Entry): void {
    this.recency.remove(e);
    e.account.recency.remove(e);
    this.usedBytes -= e.bytes;
    e.account.usedBytes -= e.bytes;
    this.entries--;
  }

  private enforce(account: CacheAccount): void {
    while (account.usedBytes > this.shareBytes && account.recency.head) this.evict(account.recency.head);
    while (this.usedBytes > this.limitBytes && this.recency.head) this.evict(this.recency.head);
  }

  private evict(e: Entry): void {
    this.evictions++;
    e.owner.forget(e);
  }
}

/** A cache's measure of a value: its estimated bytes, key included. */
type Measure<K, V> = (key: K, value: V) => number;

/**
 * A least-recently-used map whose values are counted against a `CacheBudget` through an account, and bounded in
 * count too (`capacity`). Reading an entry marks it most recently used, in its account and in the budget (the
 * account's recency list also orders the cache's own entries, for its count bound). With an `admission` policy, a
 * caller asks `admits(key)` on a miss and keeps the value it computed only when told so.
 */
export class BudgetedLru<K, V> implements Owner {
  private readonly map = new Map<K, Entry>();

  constructor(
    private readonly account: CacheAccount,
    private readonly measure: Measure<K, V>,
    readonly capacity: number = Number.POSITIVE_INFINITY,
    private readonly admission: Admission<K> | null = null,
  ) {
    if (!(capacity >= 1)) throw new RangeError('a cache capacity must be at least 1');
  }

  /**
   * Whether a value under `key`, missed and computed now, is worth keeping (always, without an admission policy); a
   * refusal is counted in the budget's figures. Ask once per miss: the policy notes every question.
   */
  admits(key: K): boolean {
    if (this.admission === null || this.admission.admit(key)) return true;
    this.account.budget.refuse();
    return false;
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.account.budget.touch(e);
    return e.value as V;
  }

  /** The value without marking it used (figures, tests). */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value as V | undefined;
  }

  /** Caches a value; false when it is larger than one account's share (it is then not kept). */
  set(key: K, value: V): boolean {
    const old = this.map.get(key);
    if (old) this.forget(old);
    const bytes = this.measure(key, value);
    const budget = this.account.budget;
    if (!budget.fits(bytes)) return false;
    const e: Entry = {
      key,
      value,
      bytes,
      owner: this,
      account: this.account,
      prev: null,
      next: null,
      accountPrev: null,
      accountNext: null,
    };
    if (this.map.size >= this.capacity) {
      const oldest = this.account.oldestOf(this);
      if (oldest) this.forget(oldest);
    }
    this.map.set(key, e);
    budget.admit(e);
    return this.map.get(key) === e;
  }

  /**
   * Measures every cached value again (after they changed in place); one now larger than the share is dropped. (A
   * Map iterated while entries are deleted visits each remaining entry once.)
   */
  remeasureAll(): void {
    const budget = this.account.budget;
    for (const e of this.map.values()) {
      const bytes = this.measure(e.key as K, e.value as V);
      if (bytes === e.bytes) continue;
      if (!budget.fits(bytes)) this.forget(e);
      else budget.resize(e, bytes);
    }
  }

  delete(key: K): boolean {
    const e = this.map.get(key);
    if (!e) return false;
    this.forget(e);
    return true;
  }

  /** Calls `visit` with every cached value (no generator: collections call it on every write). */
  forEach(visit: (value: V) => void): void {
    for (const e of this.map.values()) visit(e.value as V);
  }

  clear(): void {
    if (this.map.size === 0) return;
    for (const e of this.map.values()) this.account.budget.release(e);
    this.map.clear();
  }

  forget(entry: Entry): void {
    if (this.map.get(entry.key as K) !== entry) return;
    this.map.delete(entry.key as K);
    this.account.budget.release(entry);
  }
}

/** A budget of its own for caches outside any mock (a collection built alone, compiled filters of plain arrays). */
export function standaloneBudget(): CacheBudget {
  return new CacheBudget(STANDALONE_BUDGET_BYTES);
}

/** Estimated bytes of a string (UTF-16 code units, plus a header). */
export function stringBytes(text: string): number {
  return 16 + 2 * text.length;
}

/** Estimated overhead of one cached entry: the entry node, its map slot and the value's object header. */
export const ENTRY_OVERHEAD_BYTES = 160;
