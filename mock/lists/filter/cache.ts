import type { ListFieldTable } from '../../../spec/lists/fields.js';
import { LruCache } from '../lru.js';
import { ok, type Result } from '../result.js';
import { caseMode, type TextCase } from '../engine-options.js';
import { compileFilterPlan, type CompiledFilter } from './compile.js';
import { parseFilter } from './parser.js';

/**
 * Parsed and compiled filters, cached per field table in a bounded LRU keyed by the exact `filterBy` text
 * (clients repeat the same filters). Failures are cached too. Compiled filters hold no item data, so they never
 * go stale when items change. A case-sensitive engine compiles the same text to another filter: it has caches of
 * its own (the module is shared by every mock of a process).
 */
export const FILTER_CACHE_SIZE = 256;

type Caches = WeakMap<ListFieldTable, LruCache<string, Result<CompiledFilter | null>>>;
/** One set of caches per case mode (mock/lists/engine-options.ts `caseMode`). */
const cachesByMode = new Map<string, Caches>();

/** Parses and compiles `text` for `fields`; `null` means no filter (empty or whitespace-only text). */
export function getCompiledFilter(
  text: string,
  fields: ListFieldTable,
  textCase: TextCase = 'insensitive',
  equalsCase: TextCase = 'sensitive',
): Result<CompiledFilter | null> {
  const mode = caseMode({ textCase, equalsCase });
  let caches = cachesByMode.get(mode);
  if (!caches) {
    caches = new WeakMap();
    cachesByMode.set(mode, caches);
  }
  let cache = caches.get(fields);
  if (!cache) {
    cache = new LruCache(FILTER_CACHE_SIZE);
    caches.set(fields, cache);
  }
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
