import type { AttemptRecord, EventIdCarrier, LearnedListField, RecordShape } from './shapes.js';

/**
 * The kinds of decision points and the values a deployment may have at each (points.ts builds the points). Every kind
 * is a question the reference leaves open ("not shown"); a value outside a kind's set is refused when a decision file
 * is read, so a file never carries something the mock, the runner or the publisher cannot act on.
 */

/** How a 429 tells its retry delay: the header and the unit of its value. */
export interface RetryDelay {
  header: string;
  unit: RetryDelayUnit;
}
export const RETRY_DELAY_UNITS = ['seconds', 'milliseconds', 'epoch-seconds', 'http-date'] as const;
export type RetryDelayUnit = (typeof RETRY_DELAY_UNITS)[number];

/** What a deployment does with a valid bearer token sent together with a different, unknown X-Api-Key. */
export const OTHER_KEY_RULES = ['refused', 'ignored'] as const;
export type OtherKeyRule = (typeof OTHER_KEY_RULES)[number];

/** Whether text comparisons (text operators, Equals, field names in filterBy) regard the case of letters. */
export const TEXT_CASES = ['insensitive', 'sensitive'] as const;
export type TextCase = (typeof TEXT_CASES)[number];

/** Whether a credential is accepted (an API key alone; a bearer token repeated in X-Api-Key). */
export const KEY_RULES = ['accepted', 'refused'] as const;
export type KeyRule = (typeof KEY_RULES)[number];

/** The media type of problem bodies (Errors / Problem body: "JSON objects"; the media type is not shown). */
export const PROBLEM_MEDIA_TYPES = ['application/problem+json', 'application/json'] as const;
export type ProblemMediaType = (typeof PROBLEM_MEDIA_TYPES)[number];

/** What a list does with a `sortBy` naming a field it does not have. */
export const UNKNOWN_SORT_RULES = ['refused', 'ignored'] as const;
export type UnknownSortRule = (typeof UNKNOWN_SORT_RULES)[number];

/** Where null values come in an ascending sort (the mirror place in a descending one). */
export const NULL_ORDERS = ['first', 'last'] as const;
export type NullOrder = (typeof NULL_ORDERS)[number];

/** How `A||B&&C` groups: `&&` binds tighter (`A||(B&&C)`), or the expression is read left to right. */
export const PRECEDENCES = ['and-first', 'left-to-right'] as const;
export type Precedence = (typeof PRECEDENCES)[number];

/** What `Field[Equals]2025-03-01` matches on a date-time field: the whole UTC day, or the instant of its midnight. */
export const DATE_ONLY_RULES = ['whole-day', 'instant'] as const;
export type DateOnlyRule = (typeof DATE_ONLY_RULES)[number];

/** Whether the catalog entries carry the contract's texts, or texts of the deployment's own. */
export const CATALOG_TEXTS = ['contract', 'own'] as const;
export type CatalogTexts = (typeof CATALOG_TEXTS)[number];

/** How a collection is answered: the page envelope (Resources / Page of results) or a bare JSON array. */
export const LIST_FORMS = ['envelope', 'array'] as const;
export type ListForm = (typeof LIST_FORMS)[number];

/** The permission an operation needs, or `none` when any authenticated caller may call it. */
export type PermissionName = string;

/** The value of each kind of decision point. */
export interface DecisionValues {
  'code-status': number;
  'success-status': number;
  'retry-delay': RetryDelay;
  'other-api-key-with-bearer': OtherKeyRule;
  'text-case': TextCase;
  'equals-case': TextCase;
  /** A field as the target spells it, with an optional leading `-`, or `none`. */
  'default-order': string;
  'problem-media-type': ProblemMediaType;
  /** The `type` of the plain 401: one of the addresses of RFC 9110 section 15.5.2. */
  'problem-401-type': string;
  'api-key-alone': KeyRule;
  'key-repeating-bearer': KeyRule;
  'unknown-sort-field': UnknownSortRule;
  'null-order': NullOrder;
  'filter-precedence': Precedence;
  'field-name-case': TextCase;
  'date-only-equals': DateOnlyRule;
  'catalog-texts': CatalogTexts;
  'list-form': ListForm;
  'list-fields': LearnedListField[];
  'record-fields': RecordShape;
  'webhook-payload': RecordShape;
  'webhook-event-id': EventIdCarrier;
  'webhook-attempt': AttemptRecord;
  permission: PermissionName;
}
export type DecisionKind = keyof DecisionValues;

export type { AttemptRecord, EventIdCarrier, LearnedListField, RecordShape };
