import { LRUCache } from 'lru-cache';
import type { ListField, ListFieldTable } from '../../spec/lists/fields.js';
import type { ColumnSource } from './columns.js';
import { findField } from './fieldIndex.js';
import { SORTING_PARSING_FAILED, fail, ok, type Result } from './result.js';

/**
 * `sortBy`: a comma-separated list of field names, each optionally prefixed by `-` for descending
 * (`-createdAt,name`). Whitespace around a segment is ignored; between `-` and the name it is not allowed.
 * Field names match ignoring case. Unknown or non-sortable fields, empty segments (`name,`, `,name`, `-`) and a
 * field named twice (`name,-Name`) fail with SORTING_PARSING_FAILED. Empty or whitespace-only text (or no
 * parameter) means the default order.
 *
 * Ordering: strings and enums by ordinal UTF-16 code unit comparison (not locale-aware), numbers numerically,
 * dates by instant, booleans false before true. Null, missing and ill-typed values come first when ascending and
 * last when descending (the other way round where a deployment's `null-order: last` is adopted, `withNullsLast`). Ties are always broken by `id` ascending (also in descending sorts), so the order is total
 * and stable; the default order is `id` ascending.
 */
export interface SortKey {
  readonly field: ListField;
  readonly descending: boolean;
}

export interface SortSpec {
  readonly keys: readonly SortKey[];
  /** Canonical identity of the order (used to cache sorted arrays); '' for the default order. */
  readonly cacheKey: string;
  /** Nulls after every value ascending (before them descending): a deployment's order adopted (engine-options.ts). */
  readonly nullsLast?: boolean;
}

/** A sort with nulls placed last ascending (its own cache key: the order differs wherever a key holds nulls). */
export function withNullsLast(spec: SortSpec): SortSpec {
  return spec.keys.length === 0 ? spec : { ...spec, nullsLast: true, cacheKey: `${spec.cacheKey}|nulls-last` };
}

const DEFAULT_SORT: SortSpec = { keys: [], cacheKey: '' };

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const SORT_CACHE_SIZE = 256;
const caches = new WeakMap<ListFieldTable, LRUCache<string, Result<SortSpec>>>();

function sortError(text: string, detail: string, extra: Record<string, string> = {}): Result<SortSpec> {
  return fail(SORTING_PARSING_FAILED, detail, { sortBy: text, ...extra });
}

function parseSortUncached(text: string, fields: ListFieldTable): Result<SortSpec> {
  const keys: SortKey[] = [];
  const seen = new Set<ListField>();
  for (const rawSegment of text.split(',')) {
    const segment = rawSegment.trim();
    const descending = segment.startsWith('-');
    const name = descending ? segment.slice(1) : segment;
    if (name === '')
      return sortError(
        text,
        `sortBy '${text}' has an empty segment; expected a field name, optionally prefixed by '-'`,
      );
    if (!FIELD_NAME.test(name))
      return sortError(text, `sortBy segment '${segment}' is not a field name`, { field: name });
    const field = findField(fields, name);
    if (!field) return sortError(text, `Unknown sort field '${name}'`, { field: name });
    if (!field.sortable) return sortError(text, `Field '${field.name}' is not sortable`, { field: field.name });
    if (seen.has(field))
      return sortError(text, `Field '${field.name}' appears more than once in sortBy`, { field: field.name });
    seen.add(field);
    keys.push({ field, descending });
  }
  const cacheKey = keys.map((k) => `${k.descending ? '-' : ''}${k.field.name}:${k.field.type}`).join(',');
  return ok({ keys, cacheKey });
}

/** Parses `sortBy` against the sortable fields of a list. Never throws. */
export function parseSort(text: string | undefined, fields: ListFieldTable): Result<SortSpec> {
  if (text === undefined || text.trim() === '') return ok(DEFAULT_SORT);
  let cache = caches.get(fields);
  if (!cache) {
    cache = new LRUCache({ max: SORT_CACHE_SIZE });
    caches.set(fields, cache);
  }
  let result = cache.get(text);
  if (!result) {
    result = parseSortUncached(text, fields);
    cache.set(text, result);
  }
  return result;
}

/**
 * A comparator over item positions reading `key` columns of `source`, with the `id` tiebreak read from `ids`.
 * Key columns never hold NaN (invalid values are null), so `!==` plus `<` is a consistent total order.
 */
export function slotComparator(
  spec: SortSpec,
  source: ColumnSource,
  ids: readonly string[],
): (x: number, y: number) => number {
  const cols = spec.keys.map((k) => source.column(k.field, 'key'));
  const signs = spec.keys.map((k) => (k.descending ? -1 : 1));
  // A null is below every value (first ascending), or above every value when nulls go last.
  const nullRank = spec.nullsLast ? 1 : -1;
  const byId = (x: number, y: number): number => {
    const a = ids[x]!;
    const b = ids[y]!;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  if (cols.length === 0) return byId;
  if (cols.length === 1) {
    const col = cols[0]!;
    const sign = signs[0]!;
    return (x, y) => {
      const a = col[x] as string | number | boolean | null;
      const b = col[y] as string | number | boolean | null;
      if (a !== b) {
        if (a === null) return nullRank * sign;
        if (b === null) return -nullRank * sign;
        return a < b ? -sign : sign;
      }
      return byId(x, y);
    };
  }
  return (x, y) => {
    for (let k = 0; k < cols.length; k++) {
      const col = cols[k]!;
      const a = col[x] as string | number | boolean | null;
      const b = col[y] as string | number | boolean | null;
      if (a !== b) {
        const sign = signs[k]!;
        if (a === null) return nullRank * sign;
        if (b === null) return -nullRank * sign;
        return a < b ? -sign : sign;
      }
    }
    return byId(x, y);
  };
}
