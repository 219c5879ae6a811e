/**
 * Outcome of every list-engine operation: either a value or a problem the HTTP layer turns into a 400.
 * The engine never throws for bad client input; it returns one of these.
 */

/** Error codes the list engine can produce (all map to HTTP 400). */
type ListErrorCode =
  | 'COMMON.QUERY.FILTER_PARSING_FAILED'
  | 'COMMON.QUERY.SORTING_PARSING_FAILED'
  | 'COMMON.VALIDATION.ERROR';

/**
 * A client error found while reading list query parameters.
 * `parameters` carries context for the problem document, e.g. `{ filterBy, position }`, `{ sortBy, field }` or `{ field: 'pageSize' }`.
 */
export interface ListError {
  code: ListErrorCode;
  detail: string;
  parameters: Record<string, string>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ListError };

export const FILTER_PARSING_FAILED = 'COMMON.QUERY.FILTER_PARSING_FAILED' as const;
export const SORTING_PARSING_FAILED = 'COMMON.QUERY.SORTING_PARSING_FAILED' as const;
export const VALIDATION_ERROR = 'COMMON.VALIDATION.ERROR' as const;

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ListErrorCode, detail: string, parameters: Record<string, string>): Result<T> {
  return { ok: false, error: { code, detail, parameters } };
}
