import type { ListFieldTable } from '../../../spec/lists/fields.js';
import {
  BudgetedLru,
  ENTRY_OVERHEAD_BYTES,
  standaloneBudget,
  stringBytes,
  type CacheAccount,
  type CacheBudget,
} from '../cache-budget.js';
import { Doorkeeper } from '../doorkeeper.js';
import { ok, type Result } from '../result.js';
import { caseMode, type TextCase } from '../engine-options.js';
import type { FilterAst } from './ast.js';
import { compileFilterPlan, type CompiledFilter } from './compile.js';
import { parseFilter } from './parser.js';

/**
 * Parsed and compiled filters, cached in bounded LRUs (one per field table and case mode) keyed by the exact
 * `filterBy` text (clients repeat the same filters), and counted against a byte budget (one per mock, `--cache-mb`:
 * ../cache-budget.ts) as one account: one mock's tenants share them. Failures are cached too. A text is kept from its
 * second request within `FILTER_ADMISSION_WINDOW` on (../doorkeeper.ts): compiling again costs microseconds, while a
 * kept filter never asked for again would outlive its request. Compiled filters hold no item data, so they never go
 * stale when items change. A case-sensitive engine compiles the same text to another filter: it has caches of its own.
 */
const FILTER_CACHE_SIZE = 256;

/** Uncached filter texts remembered per cache (inferred: the texts of a mock's tenants, 4 KB per cache). */
const FILTER_ADMISSION_WINDOW = 1024;

/**
 * Estimated bytes of a compiled filter per condition (its syntax node, matcher and closures), and of a failure or an
 * empty filter (inferred, measured with V8's heap: 1,800 bytes for one condition, 3,100 for two, 6,300 for four,
 * 800 for an unknown operator, text and entry included).
 */
const CONDITION_BYTES = 1400;
const OUTCOME_BYTES = 512;

type FilterCache = BudgetedLru<string, Result<CompiledFilter | null>>;

function conditions(ast: FilterAst): number {
  return ast.kind === 'condition' ? 1 : ast.children.reduce((n, child) => n + conditions(child), 0);
}

/** The text twice (the key, and the values kept in the syntax tree), plus its conditions or outcome. */
function filterBytes(text: string, result: Result<CompiledFilter | null>): number {
  const compiled = result.ok && result.value !== null ? CONDITION_BYTES * conditions(result.value.ast) : OUTCOME_BYTES;
  return ENTRY_OVERHEAD_BYTES + 2 * stringBytes(text) + compiled;
}

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
    cache = new BudgetedLru(filters.account, filterBytes, FILTER_CACHE_SIZE, new Doorkeeper(FILTER_ADMISSION_WINDOW));
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
  if (cache.admits(text)) cache.set(text, result);
  return result;
}
