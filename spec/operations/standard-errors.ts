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
  ...DOC,
};

export const RATE_LIMITED: ErrorResponse = {
  status: 429,
  codes: ['COMMON.RATE_LIMIT.EXCEEDED'],
  description:
    'The request rate limit of the tenant is exceeded; retry after the delay in `Retry-After` (seconds; the header is inferred).',
  ...DOC,
};

/** 403 for an operation that needs a permission: documented where the reference lists 403 for the operation. */
export function forbidden(documentedForOperation: boolean): ErrorResponse {
  const description =
    'The caller lacks the permission of the operation (`x-permission`); `detail` and `parameters.permission` name it.';
  return documentedForOperation
    ? { status: 403, codes: ['COMMON.AUTH.MISSING_PERMISSIONS'], description, ...DOC }
    : {
        status: 403,
        codes: ['COMMON.AUTH.MISSING_PERMISSIONS'],
        description,
        ...INF(
          "The reference states the 403 rule for every permission-guarded operation (Authentication, point 4); this operation's permission itself is inferred.",
        ),
      };
}

/** 400 on a list: bad filter (documented pair), bad sort, bad page parameters. */
export function listBadRequest(filterAndSort: boolean): ErrorResponse {
  return filterAndSort
    ? {
        status: 400,
        codes: ['COMMON.QUERY.FILTER_PARSING_FAILED', 'COMMON.QUERY.SORTING_PARSING_FAILED', 'COMMON.VALIDATION.ERROR'],
        description:
          'The filter cannot be parsed or names an unknown column (FILTER_PARSING_FAILED, documented); the sort names an unknown field (SORTING_PARSING_FAILED); a page parameter is out of bounds (VALIDATION.ERROR).',
        ...DOC,
      }
    : {
        status: 400,
        codes: ['COMMON.VALIDATION.ERROR'],
        description: 'A page parameter is out of bounds (pageNumber >= 1, pageSize 1..1000).',
        ...INF('Out-of-bounds page parameters are rejected rather than clamped; the status and code are not shown.'),
      };
}

/** 400 on a body that fails validation. */
export function bodyBadRequest(documentedForOperation: boolean): ErrorResponse {
  const description =
    'The body is not valid JSON or does not match the schema; `detail` and `parameters.field` name the field.';
  return documentedForOperation
    ? { status: 400, codes: ['COMMON.VALIDATION.ERROR'], description, ...DOC }
    : {
        status: 400,
        codes: ['COMMON.VALIDATION.ERROR'],
        description,
        ...INF(
          'Field-level detail of validation errors is not shown; bodies are validated against the schema and rejected with COMMON.VALIDATION.ERROR.',
        ),
      };
}

/** 404 for an addressed entity that does not exist. */
export function notFound(documentedForOperation: boolean, what: string): ErrorResponse {
  const description = `${what} does not exist (COMMON.ENTITY.NOT_FOUND; parameters \`entity\` and \`id\`).`;
  return documentedForOperation
    ? { status: 404, codes: ['COMMON.ENTITY.NOT_FOUND'], description, ...DOC }
    : {
        status: 404,
        codes: ['COMMON.ENTITY.NOT_FOUND'],
        description,
        ...INF(
          'The reference states "an addressed entity does not exist" as the general 404 rule; this operation\'s table does not list 404.',
        ),
      };
}
