import {
  BudgetedLru,
  CacheBudget,
  type CacheAccount,
  type CacheFigures,
  ENTRY_OVERHEAD_BYTES,
  stringBytes,
} from './cache-budget.js';
import { Doorkeeper } from './doorkeeper.js';
import type { ListCollection } from './index.js';
import type { ListQuery } from './query.js';

/**
 * Serialized list pages: the bytes of a list answer kept for the next identical request, as long as its list has not
 * changed. A list answer is a pure function of the list's items (its `version`), the operation, the engine's case
 * mode and the list parameters as sent, so a kept page is byte for byte the answer the list engine and the
 * serializer would give again; a write to the list (any `set`/`delete`: every write goes through the store's one
 * commit seam) changes its version and drops its pages. Why (inferred; measured with the bench `list` scenario): a
 * client polling the same page, or paging through a list twice, costs the mock the filter, the page and
 * serializing it (~20% of its CPU per list request) for an answer it already wrote.
 *
 * Bounded by a byte budget of its own (a share of `--cache-mb`), least recently used page first out, at most
 * `PAGES_PER_LIST` per list; a page larger than `MAX_PAGE_TEXT_BYTES` is not kept, nor a page asked for once only
 * (kept from its second request within `PAGE_ADMISSION_WINDOW` on, ../lists/doorkeeper.ts: measured with the bench
 * list-100k-varied, pages of never-repeated filters kept then dropped grew malloc's heap by ~45 MB in a minute).
 */

/** Pages kept per list (inferred: a client's few filters times a few pages each). */
const PAGES_PER_LIST = 64;

/** Uncached pages of a list remembered, so that one asked for again is kept (inferred; 1 KB per list). */
const PAGE_ADMISSION_WINDOW = 256;

/** The largest page text kept (inferred: a page of 1,000 SKUs is ~300 KB; such pages are rarely asked twice). */
const MAX_PAGE_TEXT_BYTES = 128 * 1024;

/** The part of the list caches' budget (`--cache-mb`) page texts may hold (inferred). */
export const PAGE_TEXT_SHARE = 1 / 16;

/** The pages of one list, valid for one version of it. */
interface ListPages {
  version: number;
  readonly texts: BudgetedLru<string, Buffer>;
}

/** Estimated bytes of a kept page: its buffer, its key and the entry. */
function pageBytes(key: string, text: Buffer): number {
  return ENTRY_OVERHEAD_BYTES + stringBytes(key) + text.length;
}

/**
 * The key of a list request: operation, case mode and the four list parameters as sent (their JSON types told apart:
 * `"2"` in a query string and `2` in a search body may be answered alike, but need not be). Undefined for a
 * parameter that is neither text, number nor absent (a repeated query parameter, an object): not kept.
 */
export function pageKey(operationId: string, mode: string, query: ListQuery): string | undefined {
  let key = `${operationId}\u0000${mode}`;
  for (const value of [query.pageNumber, query.pageSize, query.filterBy, query.sortBy] as unknown[]) {
    if (value === undefined) key += '\u0000u';
    else if (value === null) key += '\u0000l';
    else if (typeof value === 'string') key += `\u0000s${value}`;
    else if (typeof value === 'number') key += `\u0000n${value}`;
    else return undefined;
  }
  return key;
}

export class PageTexts {
  private readonly budget: CacheBudget;
  private readonly lists = new WeakMap<ListCollection<{ id: string }>, ListPages>();

  /** `limitBytes`: the most all kept pages together may hold. */
  constructor(limitBytes: number) {
    this.budget = new CacheBudget(limitBytes);
  }

  /** The kept text of this request of `list`, if the list has not changed since it was kept. */
  get(list: ListCollection<{ id: string }>, key: string): Buffer | undefined {
    const pages = this.lists.get(list);
    if (pages === undefined) return undefined;
    if (pages.version !== list.version) {
      pages.texts.clear();
      pages.version = list.version;
      return undefined;
    }
    return pages.texts.get(key);
  }

  /**
   * A function that keeps the text of this request once serialized: only if `list` is still at the version the
   * answer was computed from, the text is not too large, and the key was asked for before (admission).
   */
  keeper(list: ListCollection<{ id: string }>, key: string): (text: Buffer) => void {
    const version = list.version;
    return (text) => {
      if (list.version !== version || text.length > MAX_PAGE_TEXT_BYTES) return;
      let pages = this.lists.get(list);
      if (pages === undefined) {
        const account: CacheAccount = this.budget.account();
        const admission = new Doorkeeper(PAGE_ADMISSION_WINDOW);
        pages = { version, texts: new BudgetedLru(account, pageBytes, PAGES_PER_LIST, admission) };
        this.lists.set(list, pages);
      } else if (pages.version !== version) {
        pages.texts.clear();
        pages.version = version;
      }
      if (pages.texts.admits(key)) pages.texts.set(key, text);
    };
  }

  /** What the pages hold now (`GET /__mock/stats`). */
  figures(): CacheFigures {
    return this.budget.figures();
  }
}
