/**
 * Limits the contract declares and the mock enforces: one table for both, so a declared bound is an enforced bound.
 * The reference gives the paging bounds (Limits: pageSize 1..1000, pageNumber >= 1) but no maximum page number, no
 * length of `filterBy`/`sortBy` and no length of body strings ("maximum request body sizes: not shown"). Those
 * values are inferred; each declared bound carries `x-<keyword>-provenance: inferred` and `x-<keyword>-rationale`
 * beside the keyword, like `x-permission-provenance` beside `x-permission`, because the field itself may be documented.
 */

/** Largest `pageNumber` (inferred): the largest 32-bit signed integer. */
export const MAX_PAGE_NUMBER = 2_147_483_647;
/** Longest `filterBy`, in characters (inferred). */
export const MAX_FILTER_LENGTH = 4096;
/** Longest `sortBy`, in characters (inferred). */
export const MAX_SORT_LENGTH = 512;
/** Longest identifier, reference or name in a request body (inferred; the path parameters take 1..200 too). */
export const MAX_NAME_LENGTH = 200;
/** Longest free text (comments) in a request body (inferred). */
export const MAX_TEXT_LENGTH = 2000;
/** Longest webhook endpoint URL (inferred). */
export const MAX_URL_LENGTH = 2048;

export const PAGE_NUMBER_RATIONALE =
  'Limits give pageNumber a minimum of 1 and no maximum; the bound is the largest 32-bit signed integer (the usual page-number type of server frameworks), which also keeps (pageNumber - 1) * pageSize exact. Above it: 400 COMMON.VALIDATION.ERROR naming pageNumber.';
export const FILTER_LENGTH_RATIONALE =
  'The length of filterBy is not shown; 4096 characters hold dozens of conditions and, in ASCII, keep a request line under the 8 KB most HTTP servers accept (percent-encoded non-ASCII text takes up to 12 bytes a character: long such filters fit a search body, not a URL). Characters are counted as JSON Schema counts them (code points). Longer: 400 COMMON.VALIDATION.ERROR naming filterBy.';
export const SORT_LENGTH_RATIONALE =
  'The length of sortBy is not shown; 512 characters name every sortable field of any list. Longer: 400 COMMON.VALIDATION.ERROR naming sortBy.';
export const NAME_LENGTH_RATIONALE =
  'Length limits of body strings are not shown ("maximum request body sizes: not shown"); identifiers, references and names take at most 200 characters, like the path parameters. Longer: 400 COMMON.VALIDATION.ERROR naming the field.';
export const TEXT_LENGTH_RATIONALE =
  'Length limits of body strings are not shown; free text takes at most 2000 characters so a stored record stays small. Longer: 400 COMMON.VALIDATION.ERROR naming the field.';
export const URL_LENGTH_RATIONALE =
  'The length of an endpoint URL is not shown; 2048 characters is the practical URL limit of common HTTP clients and servers. Longer: 400 COMMON.VALIDATION.ERROR naming the field.';

/** `maxLength` with its inferred provenance, for a schema whose own mark may be `documented`. */
export function inferredMaxLength(
  maxLength: number,
  rationale: string,
): { maxLength: number; 'x-maxLength-provenance': 'inferred'; 'x-maxLength-rationale': string } {
  return { maxLength, 'x-maxLength-provenance': 'inferred', 'x-maxLength-rationale': rationale };
}

/** `maximum` with its inferred provenance, for a schema whose own mark may be `documented`. */
export function inferredMaximum(
  maximum: number,
  rationale: string,
): { maximum: number; 'x-maximum-provenance': 'inferred'; 'x-maximum-rationale': string } {
  return { maximum, 'x-maximum-provenance': 'inferred', 'x-maximum-rationale': rationale };
}
