import type { ListFieldTable } from '../../spec/lists/fields.js';
import { ArrayColumns } from './columns.js';
import { ListCollection } from './collection.js';
import { caseMode, DEFAULT_LIST_ENGINE, type ListEngineOptions } from './engine-options.js';
import { getCompiledFilter } from './filter/cache.js';
import type { CompiledFilter } from './filter/compile.js';
import { tableId } from './fieldIndex.js';
import { parsePaging } from './paging.js';
import type { ListQuery, Page } from './query.js';
import { FILTER_PARSING_FAILED, SORTING_PARSING_FAILED, fail, ok, type Result } from './result.js';
import { parseSort, slotComparator, withNullsLast, type SortSpec } from './sort.js';
import { checkTextLength } from './text-limits.js';

/**
 * Where a list's items come from: a `ListCollection` (indexed and cached; the fast path) or any iterable of items
 * (filtered and sorted from scratch on every call).
 */
export type ListSource<T extends { id: string }> = ListCollection<T> | Iterable<T>;

/** The case mode of the engine the contract infers (its cache keys carry no mode prefix). */
const DEFAULT_MODE = caseMode(DEFAULT_LIST_ENGINE);

/**
 * Runs a list query: validates paging, then the filter, then the sort, each text within its declared length
 * (the first failure is returned, in that order), selects the matching items in order and returns the requested page with exact totals. A page beyond the
 * last one has empty `results` and the real totals. Returns the item objects themselves. Never throws for bad input.
 * `engine`: the options the mock runs the engine with (engine-options.ts), the same for every request.
 */
export function runList<T extends { id: string }>(
  source: ListSource<T>,
  fields: ListFieldTable,
  query: ListQuery,
  engine: ListEngineOptions = DEFAULT_LIST_ENGINE,
): Result<Page<T>> {
  const paging = parsePaging(query);
  if (!paging.ok) return paging;
  const { pageNumber, pageSize } = paging.value;

  const filterText: unknown = query.filterBy;
  if (filterText !== undefined && filterText !== null && typeof filterText !== 'string') {
    return fail(FILTER_PARSING_FAILED, 'filterBy must be a single text value', {
      filterBy: String(filterText),
      position: '0',
    });
  }
  if (typeof filterText === 'string') {
    const length = checkTextLength('filterBy', filterText);
    if (!length.ok) return length;
  }
  const { textCase, equalsCase } = engine;
  // Compiled filters count against the budget of the collection's mock (a plain array's: the process's own).
  const budget = source instanceof ListCollection ? source.cacheBudget : undefined;
  const filter =
    typeof filterText === 'string' ? getCompiledFilter(filterText, fields, textCase, equalsCase, budget) : ok(null);
  if (!filter.ok) return filter;

  const sortText: unknown = query.sortBy;
  if (sortText !== undefined && sortText !== null && typeof sortText !== 'string') {
    return fail(SORTING_PARSING_FAILED, 'sortBy must be a single text value', { sortBy: String(sortText) });
  }
  if (typeof sortText === 'string') {
    const length = checkTextLength('sortBy', sortText);
    if (!length.ok) return length;
  }
  const sort = parseSort(typeof sortText === 'string' ? sortText : undefined, fields);
  if (!sort.ok) return sort;
  // A deployment's place for nulls, adopted (engine-options.ts): an order of its own, cached apart.
  const order = engine.nullOrder === 'last' ? withNullsLast(sort.value) : sort.value;

  const offset = (pageNumber - 1) * pageSize;
  let totalCount: number;
  let results: T[];
  if (source instanceof ListCollection) {
    // A collection caches matches by this key: a filter of the same text under another case mode matches other items.
    const mode = caseMode(engine);
    const filterKey =
      filter.value === null
        ? undefined
        : `${mode === DEFAULT_MODE ? '' : `${mode}\u0000`}${tableId(fields)}\u0000${filterText as string}`;
    ({ totalCount, results } = source.page(filter.value, order, offset, pageSize, filterKey));
  } else {
    ({ totalCount, results } = pageOfIterable(source, filter.value, order, offset, pageSize));
  }
  return ok({
    results,
    pageNumber,
    pageSize,
    totalPages: totalCount === 0 ? 0 : Math.ceil(totalCount / pageSize),
    totalCount,
  });
}

function pageOfIterable<T extends { id: string }>(
  source: Iterable<T>,
  filter: CompiledFilter | null,
  sort: SortSpec,
  offset: number,
  limit: number,
): { totalCount: number; results: T[] } {
  const items: readonly T[] = Array.isArray(source) ? source : Array.from(source);
  const columns = new ArrayColumns(items);
  const selected: number[] = [];
  if (filter === null) {
    for (let i = 0; i < items.length; i++) selected.push(i);
  } else {
    const test = filter.bind(columns);
    for (let i = 0; i < items.length; i++) if (test(i)) selected.push(i);
  }
  const ids = items.map((item) => String(item.id));
  selected.sort(slotComparator(sort, columns, ids));
  const results: T[] = [];
  const end = Math.min(selected.length, offset + limit);
  for (let i = offset; i < end; i++) results.push(items[selected[i]!]!);
  return { totalCount: selected.length, results };
}
