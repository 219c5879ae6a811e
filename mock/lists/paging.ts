import { MAX_PAGE_NUMBER } from '../../spec/limits.js';
import type { ListQuery } from './query.js';
import { VALIDATION_ERROR, fail, ok, type Result } from './result.js';

/**
 * Paging parameters. `pageNumber` defaults to 1 and must be between 1 and `MAX_PAGE_NUMBER` (the maximum the
 * contract declares; inferred); `pageSize` defaults to 25 and must be between 1 and 1000 inclusive. Query strings must be plain digits (no sign, fraction, exponent or spaces; leading zeros
 * are fine); JSON bodies send numbers, which must be integers. A missing (`undefined` or `null`) value takes the
 * default; an empty string is invalid. Values beyond the bounds, however large, fail with the same detail naming them.
 * A bad value fails with COMMON.VALIDATION.ERROR and `parameters.field` naming the parameter.
 */
const DEFAULT_PAGE_NUMBER = 1;
const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 1000;

interface Paging {
  pageNumber: number;
  pageSize: number;
}

const DIGITS = /^[0-9]+$/;

function readInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && DIGITS.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

export function parsePaging(q: ListQuery): Result<Paging> {
  let pageNumber = DEFAULT_PAGE_NUMBER;
  if (q.pageNumber !== undefined && (q.pageNumber as unknown) !== null) {
    const n = readInteger(q.pageNumber);
    if (n === undefined || n < 1 || n > MAX_PAGE_NUMBER) {
      return fail(VALIDATION_ERROR, `pageNumber must be an integer between 1 and ${MAX_PAGE_NUMBER}`, {
        field: 'pageNumber',
      });
    }
    pageNumber = n;
  }
  let pageSize = DEFAULT_PAGE_SIZE;
  if (q.pageSize !== undefined && (q.pageSize as unknown) !== null) {
    const n = readInteger(q.pageSize);
    if (n === undefined || n < 1 || n > MAX_PAGE_SIZE) {
      return fail(VALIDATION_ERROR, `pageSize must be an integer between 1 and ${MAX_PAGE_SIZE}`, {
        field: 'pageSize',
      });
    }
    pageSize = n;
  }
  return ok({ pageNumber, pageSize });
}
