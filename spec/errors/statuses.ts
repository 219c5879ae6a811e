import { type ReferenceSentence, referenceSentence, type SentenceId } from '../reference/index.js';
import { ERROR_CODES, type ErrorCode } from './codes.js';
import { codeParts } from './naming.js';

/**
 * The HTTP status of each error code, with its provenance.
 *
 * The reference gives the status of five codes only (Errors / Status and code pairs shown) and states
 * "Status codes of all other error codes: not shown". Those five are `documented`; every other status is
 * `inferred` by the rules below (explicit overrides first, then prefix rules, then suffix rules, then the
 * default 422) and carries the rationale of the rule that decided it.
 */
interface CodeStatus {
  status: number;
  provenance: 'documented' | 'inferred';
  rationale?: string;
  /** For a documented status, the row of the pairs table that gives it. */
  quote?: ReferenceSentence;
}

/** The status and code pairs the reference shows (Errors / Status and code pairs shown). */
const DOCUMENTED_STATUSES = {
  'COMMON.QUERY.FILTER_PARSING_FAILED': 400,
  'COMMON.AUTH.MISSING_PERMISSIONS': 403,
  'COMMON.ENTITY.NOT_FOUND': 404,
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': 422,
  'COMMON.RATE_LIMIT.EXCEEDED': 429,
} as const satisfies Partial<Record<ErrorCode, number>>;

/** The row of "Status and code pairs shown" of each documented pair. */
const PAIR_ROWS: Readonly<Record<keyof typeof DOCUMENTED_STATUSES, SentenceId>> = {
  'COMMON.QUERY.FILTER_PARSING_FAILED': 'errors.pair.400',
  'COMMON.AUTH.MISSING_PERMISSIONS': 'errors.pair.403',
  'COMMON.ENTITY.NOT_FOUND': 'errors.pair.404',
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': 'errors.pair.422',
  'COMMON.RATE_LIMIT.EXCEEDED': 'errors.pair.429',
};

/** The row of the pairs table of a code whose status is documented, or undefined. */
function pairRowOf(code: ErrorCode): ReferenceSentence | undefined {
  const id = (PAIR_ROWS as Partial<Record<ErrorCode, SentenceId>>)[code];
  return id === undefined ? undefined : referenceSentence(id);
}

const NOT_SHOWN = 'The reference gives no status for this code';

/** Codes whose inferred status is set one by one, with the reason. They take precedence over the rules. */
const STATUS_OVERRIDES: Readonly<Partial<Record<ErrorCode, { status: number; rationale: string }>>> = {
  'COMMON.AUTH.UNAUTHORIZED': {
    status: 401,
    rationale: `${NOT_SHOWN}; 401 Unauthorized is used because the code reports a caller that is not authenticated (the reference documents 401 for that case).`,
  },
  'COMMON.FILE.SIZE_EXCEEDS_LIMIT': {
    status: 413,
    rationale: `${NOT_SHOWN}; 413 Content Too Large is used because the code reports an uploaded file above the size limit.`,
  },
  'COMMON.QUANTITY.UNIT_NOT_CONFIGURED': {
    status: 422,
    rationale: `${NOT_SHOWN}; 422 Unprocessable Content is used because the request is well formed but names a unit of measure that is not configured for the SKU.`,
  },
  'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': {
    status: 400,
    rationale: `${NOT_SHOWN}; 400 Bad Request is used because the unknown event is named in the subscription request body (eventName, eventVersion), not in the path, so it is a validation error of the request rather than a missing addressed resource.`,
  },
  'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL': {
    status: 400,
    rationale: `${NOT_SHOWN}; 400 Bad Request is used because the endpoint URL is a field of the subscription request body that fails validation.`,
  },
  'COMMON.TENANT.PLAN_LIMIT_EXCEEDED': {
    status: 409,
    rationale: `${NOT_SHOWN}; 409 Conflict is used because the request is valid and permitted but conflicts with what the tenant already holds (it succeeds once the tenant holds less, as with COMMON.ENTITY.ALREADY_EXISTS), rather than 403 of the other COMMON.TENANT codes: 403 is the documented answer of a missing permission, which a client resolves with other credentials, not by deleting a record; not 429, since waiting does not help.`,
  },
  'AGENTS.PERMISSIONS.NOT_GRANTED': {
    status: 403,
    rationale: `${NOT_SHOWN}; 403 Forbidden is used because the code reports a permission that is not granted.`,
  },
  'PRODUCTION.RECIPE_VERSION.CONDITION_FORMULA_CONTEXT_FIELD_NOT_FOUND': {
    status: 422,
    rationale: `${NOT_SHOWN}; 422 Unprocessable Content is used because the missing item is a field named inside a condition formula, not an addressed resource, so the not-found rule (404) does not fit.`,
  },
  'WAREHOUSE.AI.GENERATED_INVALID_RESPONSE': {
    status: 502,
    rationale: `${NOT_SHOWN}; 502 Bad Gateway is used because the code reports an invalid answer from a generating component behind the service, not a fault of the request.`,
  },
};

/** One inference rule: a predicate on the code's prefix and suffix, the status it gives, and why. */
interface StatusRule {
  readonly name: string;
  readonly status: number;
  readonly matches: (prefix: string, suffix: string) => boolean;
  readonly rationale: string;
}

/** The inference rules, tried in order after the documented pairs and the overrides; the first match wins. */
const STATUS_RULES: readonly StatusRule[] = [
  {
    name: 'query-prefix',
    status: 400,
    matches: (prefix) => prefix === 'COMMON.QUERY.',
    rationale: `${NOT_SHOWN}; 400 Bad Request is used for COMMON.QUERY codes, which report query parameters that cannot be applied, as the documented COMMON.QUERY.FILTER_PARSING_FAILED (400) does.`,
  },
  {
    name: 'validation-prefix',
    status: 400,
    matches: (prefix) => prefix === 'COMMON.VALIDATION.',
    rationale: `${NOT_SHOWN}; 400 Bad Request is used for COMMON.VALIDATION codes, which report a request that fails validation.`,
  },
  {
    name: 'auth-prefix',
    status: 403,
    matches: (prefix) => prefix === 'COMMON.AUTH.',
    rationale: `${NOT_SHOWN}; 403 Forbidden is used for COMMON.AUTH codes of an authenticated caller that may not perform the operation, as the documented COMMON.AUTH.MISSING_PERMISSIONS (403) does.`,
  },
  {
    name: 'tenant-prefix',
    status: 403,
    matches: (prefix) => prefix === 'COMMON.TENANT.',
    rationale: `${NOT_SHOWN}; 403 Forbidden is used for COMMON.TENANT codes, which refuse the operation because of the tenant's subscription (expired, or a feature the plan lacks; a limit of the plan is 409, see the override).`,
  },
  {
    name: 'too-large',
    status: 413,
    matches: (_prefix, suffix) => suffix.endsWith('_TOO_LARGE'),
    rationale: `${NOT_SHOWN}; 413 Content Too Large is used for codes that report an uploaded file that is too large.`,
  },
  {
    name: 'parsing-failed',
    status: 400,
    matches: (_prefix, suffix) => /(^|_)(PARSING|DESERIALIZATION)_FAILED$/.test(suffix),
    rationale: `${NOT_SHOWN}; 400 Bad Request is used for codes that report request content that cannot be parsed or deserialised.`,
  },
  {
    name: 'not-found',
    status: 404,
    matches: (_prefix, suffix) => /(^|_)NOT_FOUND$/.test(suffix),
    rationale: `${NOT_SHOWN}; 404 Not Found is used for codes that report a missing entity, as the documented COMMON.ENTITY.NOT_FOUND (404) does.`,
  },
  {
    name: 'conflict',
    status: 409,
    matches: (_prefix, suffix) => /(^|_)ALREADY(_|$)/.test(suffix) || /(^|_)CONFLICT$/.test(suffix),
    rationale: `${NOT_SHOWN}; 409 Conflict is used for codes that report an entity that already exists, is already deleted or is already in the requested state, and for codes that name a conflict.`,
  },
  {
    name: 'status-state',
    status: 422,
    matches: (_prefix, suffix) => /(^|_)STATUS(_|$)/.test(suffix),
    rationale: `${NOT_SHOWN}; 422 Unprocessable Content is used for codes that refuse an operation because of the current status of the entity (a business rule, not a malformed request).`,
  },
  {
    name: 'malformed-value',
    status: 400,
    matches: (_prefix, suffix) =>
      suffix.startsWith('INVALID_') || suffix.endsWith('_FORMAT') || suffix.endsWith('_NOT_NUMERIC'),
    rationale: `${NOT_SHOWN}; 400 Bad Request is used for codes that report an invalid, wrongly formatted or non-numeric value in the request.`,
  },
];

/** Rationale of the default rule. */
const DEFAULT_STATUS_RATIONALE = `${NOT_SHOWN}; 422 Unprocessable Content is used for codes that report a business rule violation by a well-formed request, as the documented PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE (422) does.`;

/** Name of the rule that decides the status of a code: `documented`, `override`, a `STATUS_RULES` name, or `default`. */
export function statusRuleOf(code: ErrorCode): string {
  if (code in DOCUMENTED_STATUSES) return 'documented';
  if (STATUS_OVERRIDES[code]) return 'override';
  const { prefix, suffix } = codeParts(code);
  return STATUS_RULES.find((rule) => rule.matches(prefix, suffix))?.name ?? 'default';
}

function computeStatus(code: ErrorCode): CodeStatus {
  const documented = (DOCUMENTED_STATUSES as Partial<Record<ErrorCode, number>>)[code];
  const row = pairRowOf(code);
  if (documented !== undefined && row) return { status: documented, provenance: 'documented', quote: row };
  const override = STATUS_OVERRIDES[code];
  if (override) return { status: override.status, provenance: 'inferred', rationale: override.rationale };
  const { prefix, suffix } = codeParts(code);
  const rule = STATUS_RULES.find((r) => r.matches(prefix, suffix));
  if (rule) return { status: rule.status, provenance: 'inferred', rationale: rule.rationale };
  return { status: 422, provenance: 'inferred', rationale: DEFAULT_STATUS_RATIONALE };
}

/** The status of every code, precomputed. */
const ERROR_STATUSES: Readonly<Record<ErrorCode, CodeStatus>> = Object.freeze(
  Object.fromEntries(ERROR_CODES.map((code) => [code, Object.freeze(computeStatus(code))])) as Record<
    ErrorCode,
    CodeStatus
  >,
);

/** The HTTP status of an error code, with its provenance and, when inferred, the rationale. */
export function statusOf(code: ErrorCode): CodeStatus {
  return ERROR_STATUSES[code];
}
