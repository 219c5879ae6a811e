import type { Quote } from '../reference/index.js';
import type { ErrorResponse } from './types.js';
import { DOC, INF } from './types.js';

/**
 * Error responses every operation shares. "All endpoints need authentication" and the 401/429 rules apply to
 * all operations (Authentication, point 3; Limits: "Request rate ... all operations"), so they are documented
 * everywhere; an operation's own table may list them explicitly too.
 */
export const UNAUTHORIZED: ErrorResponse = {
  status: 401,
  codes: [],
  description: 'Not authenticated: missing, malformed, forged or expired credentials. Plain problem without `code`.',
  ...DOC('auth.3.unauthenticated'),
};

export const RATE_LIMITED: ErrorResponse = {
  status: 429,
  codes: ['COMMON.RATE_LIMIT.EXCEEDED'],
  description:
    'The request rate limit of the tenant is exceeded; retry after the delay in `Retry-After` (seconds; the header is inferred).',
  ...DOC('limits.rate'),
};

/**
 * 403 for an operation that needs a permission: documented where the operation's permission is documented
 * (Authentication, point 4 gives the 403 and its code to every caller that lacks a permission).
 */
export function forbidden(documentedForOperation: boolean): ErrorResponse {
  const description =
    'The caller lacks the permission of the operation (`x-permission`); `detail` and `parameters.permission` name it.';
  return documentedForOperation
    ? { status: 403, codes: ['COMMON.AUTH.MISSING_PERMISSIONS'], description, ...DOC('auth.4.forbidden') }
    : {
        status: 403,
        codes: ['COMMON.AUTH.MISSING_PERMISSIONS'],
        description,
        ...INF(
          "The reference states the 403 rule for every permission-guarded operation (Authentication, point 4); this operation's permission itself is inferred.",
        ),
      };
}

/**
 * 400 on a list: bad filter, bad sort, bad page parameters. Inferred for every list: which endpoints accept `filterBy`
 * and `sortBy` is not shown ("on some endpoints"), nor are the statuses of the sort and validation codes. The pair
 * 400 COMMON.QUERY.FILTER_PARSING_FAILED itself is documented (Errors / Status and code pairs shown) and is judged
 * wherever that code is answered, from the catalog's `x-status-provenance`.
 */
export function listBadRequest(filterAndSort: boolean): ErrorResponse {
  return filterAndSort
    ? {
        status: 400,
        codes: ['COMMON.QUERY.FILTER_PARSING_FAILED', 'COMMON.QUERY.SORTING_PARSING_FAILED', 'COMMON.VALIDATION.ERROR'],
        description:
          'The filter cannot be parsed or names an unknown column (FILTER_PARSING_FAILED: a documented pair); the sort names an unknown field (SORTING_PARSING_FAILED); a page parameter is out of bounds (VALIDATION.ERROR).',
        ...INF(
          'Which endpoints accept `filterBy` and `sortBy` is not shown ("on some endpoints"); this list takes them, so an unparsable filter gets the documented pair 400 COMMON.QUERY.FILTER_PARSING_FAILED. The statuses of SORTING_PARSING_FAILED and VALIDATION.ERROR are not shown; 400 like the filter.',
        ),
      }
    : {
        status: 400,
        codes: ['COMMON.VALIDATION.ERROR'],
        description: 'A page parameter is out of bounds (pageNumber >= 1, pageSize 1..1000).',
        ...INF('Out-of-bounds page parameters are rejected rather than clamped; the status and code are not shown.'),
      };
}

/**
 * 400 on a body that fails validation: the status is documented where the operation's table lists 400 (`quote`, the
 * table's row); the code COMMON.VALIDATION.ERROR is inferred either way ("Field-level detail of validation errors:
 * not shown").
 */
export function bodyBadRequest(quote?: Quote): ErrorResponse {
  const description =
    'The body is not valid JSON or does not match the schema; `detail` and `parameters.field` name the field.';
  return quote
    ? { status: 400, codes: ['COMMON.VALIDATION.ERROR'], description, ...DOC(quote) }
    : {
        status: 400,
        codes: ['COMMON.VALIDATION.ERROR'],
        description,
        ...INF(
          'Field-level detail of validation errors is not shown; bodies are validated against the schema and rejected with COMMON.VALIDATION.ERROR.',
        ),
      };
}

/** 404 for an addressed entity that does not exist: documented where the operation's table lists 404 (`quote`, its row). */
export function notFound(quote: Quote | undefined, what: string): ErrorResponse {
  const description = `${what} does not exist (COMMON.ENTITY.NOT_FOUND; parameters \`entity\` and \`id\`).`;
  return quote
    ? { status: 404, codes: ['COMMON.ENTITY.NOT_FOUND'], description, ...DOC(quote) }
    : {
        status: 404,
        codes: ['COMMON.ENTITY.NOT_FOUND'],
        description,
        ...INF(
          'The reference states "an addressed entity does not exist" as the general 404 rule; this operation\'s table does not list 404.',
        ),
      };
}

/**
 * 409 COMMON.TENANT.PLAN_LIMIT_EXCEEDED on a create operation whose collection is bounded per tenant. Inferred: the
 * reference names the code for limits whose values it does not give (Pagination and limits: "Other limits appear only
 * as error codes"), and neither which operations hit one nor the status; the status is the catalog's inference.
 */
export function planLimitExceeded(what: string): ErrorResponse {
  return {
    status: 409,
    codes: ['COMMON.TENANT.PLAN_LIMIT_EXCEEDED'],
    description: `The organisation already holds the most ${what} it may hold; \`parameters\` name the \`limit\`, the \`resource\` and its \`maximum\`.`,
    ...INF(
      'Pagination and limits: "Other limits appear only as error codes (for example COMMON.TENANT.PLAN_LIMIT_EXCEEDED ...); their values are not given". Which operations hit a limit, its value and the status are not shown: a server may bound this collection otherwise, or not at all, and answer another status.',
    ),
  };
}
