import { MAX_FILTER_LENGTH, MAX_SORT_LENGTH } from '../../spec/limits.js';
import { VALIDATION_ERROR, fail, ok, type Result } from './result.js';

/** The list parameters whose length the contract bounds (`maxLength` of FilterBy and SortBy; spec/limits.ts). */
const LIMITS = { filterBy: MAX_FILTER_LENGTH, sortBy: MAX_SORT_LENGTH } as const;

/** Length in characters as JSON Schema's `maxLength` counts them: code points, not UTF-16 units. */
function characters(text: string, atMost: number): number {
  // Cheap bound first: a text of at most `atMost` UTF-16 units has at most that many code points.
  if (text.length <= atMost) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Rejects a `filterBy` or `sortBy` longer than the contract declares, before any parsing: 400
 * COMMON.VALIDATION.ERROR naming the parameter (inferred, like every bad list parameter; the bound is inferred too).
 */
export function checkTextLength(name: keyof typeof LIMITS, text: string): Result<null> {
  const max = LIMITS[name];
  const length = characters(text, max);
  if (length > max)
    return fail(VALIDATION_ERROR, `${name} must be at most ${max} characters (got ${length})`, { field: name });
  return ok(null);
}
