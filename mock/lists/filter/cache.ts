import type { ListFieldTable } from '../../../spec/lists/fields.js';
import {
  BudgetedLru,
  ENTRY_OVERHEAD_BYTES,
  standaloneBudget,
  stringBytes,
  type CacheAccount,
  type CacheBudget,
} from '../cache-budget.js';
import { ok, type Result } from '../result.js';
import { caseMode, type TextCase } from '../engine-options.js';
import { compileFilterPlan, type CompiledFilter } from './compile.js';
import { parseFilter } from './parser.js';

/**
 * Parsed and compiled filters, cached in bounded LRUs (one per field table and case mode) keyed by the exact
 * `filterBy` text (clients repeat the same filters), and counted against a byte budget (one per mock, `--cache-mb`:
 * ../cache-budget.ts) as one account: one mock's tenants share them. Failures are cached too. Compiled filters hold
 * no item data, so they never go stale when items change. A case-sensitive engine compiles the same text to another
 * filter: it has caches of its own.
 */
export const FILTER_CACHE_SIZE = 256;

/**
 * Estimated bytes of a compiled filter besides its text (inferred, a fixed estimate: its syntax tree, matchers and
 * closures take a few hundred bytes per condition, and a filter has a handful of conditions).
 */
export const COMPILED_FILTER_BYTES = 2048;

type FilterCache = BudgetedLru<string, Result<CompiledFilter | null>>;

/** The text twice (the key, and the values kept in the syntax tree), plus the fixed estimate. */
const filterBytes = (text: string): number => ENTRY_OVERHEAD_BYTES + COMPILED_FILTER_BYTES + 2 * stringBytes(text);

/** The filter caches of one budget: an account, and a cache per field table and case mode. */
interface BudgetFilters {
  readonly account: CacheAccount;
  readonly byTable: WeakMap<ListFieldTable, Map<string, FilterCache>>;
}

const filtersOf = new WeakMap<CacheBudget, BudgetFilters>();
/** The budget of compiled filters of lists outside any mock (plain arrays, collections built alone). */
let standalone: CacheBudget | undefined;

function cacheOf(budget: CacheBudget | undefined, fields: ListFieldTable, mode: string): FilterCache {
  if (!budget) {
    standalone ??= standaloneBudget();
    return cacheOf(standalone, fields, mode);
  }
  let filters = filtersOf.get(budget);
  if (!filters) {
    filters = { account: budget.account(), byTable: new WeakMap() };
    filtersOf.set(budget, filters);
  }
  let byMode = filters.byTable.get(fields);
  if (!byMode) {
    byMode = new Map();
    filters.byTable.set(fields, byMode);
  }
  let cache = byMode.get(mode);
  if (!cache) {
    cache = new BudgetedLru(filters.account, filterBytes, FILTER_CACHE_SIZE);
    byMode.set(mode, cache);
  }
  return cache;
}

/** Parses and compiles `text` for `fields`; `null` means no filter (empty or whitespace-only text). */
export function getCompiledFilter(
  text: string,
  fields: ListFieldTable,
  textCase: TextCase = 'insensitive',
  equalsCase: TextCase = 'sensitive',
  budget?: CacheBudget,
): Result<CompiledFilter | null> {
  const cache = cacheOf(budget, fields, caseMode({ textCase, equalsCase }));
  const hit = cache.get(text);
  if (hit) return hit;
  const parsed = parseFilter(text);
  let result: Result<CompiledFilter | null>;
  if (!parsed.ok) result = parsed;
  else if (parsed.value === null) result = ok(null);
  else result = compileFilterPlan(parsed.value, fields, text, textCase, equalsCase);
  cache.set(text, result);
  return result;
}
