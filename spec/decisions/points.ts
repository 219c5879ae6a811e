import { ERROR_CODES, statusOf, type ErrorCode } from '../errors/index.js';
import { OPERATIONS } from '../operations/index.js';
import { RFC9110_401_TYPE, isRfc9110Section401Address } from '../schemas/problem.js';
import {
  CATALOG_TEXTS,
  DATE_ONLY_RULES,
  KEY_RULES,
  LIST_FORMS,
  NULL_ORDERS,
  OTHER_KEY_RULES,
  PRECEDENCES,
  PROBLEM_MEDIA_TYPES,
  RETRY_DELAY_UNITS,
  TEXT_CASES,
  UNKNOWN_SORT_RULES,
  type DecisionKind,
  type DecisionValues,
  type RetryDelay,
} from './kinds.js';
import { collectionForm, contractListFields, recordSchemaOf, shapeOfSchema } from './schema-shape.js';
import {
  attemptInvalid,
  eventIdInvalid,
  listFieldsInvalid,
  sameEventId,
  sameListFields,
  sameShape,
  shapeInvalid,
} from './shapes.js';

export * from './kinds.js';

/**
 * The points where the contract decides what the reference leaves open ("not shown") and a real deployment can
 * settle: each has an id (`kind` or `kind:subject`), the contract's inferred value and a test of the values a
 * deployment may have instead. `opsapi learn` observes them, `opsapi mock --decisions` adopts those that are
 * behaviour of the mock, `opsapi conform --decisions` expects them and `opsapi spec --decisions` publishes them.
 */

/** One decision point of the contract. */
export interface DecisionPoint<K extends DecisionKind = DecisionKind> {
  id: string;
  kind: K;
  title: string;
  /** What the contract infers. */
  inferred: DecisionValues[K];
  /** The error code or operation the point belongs to, when it belongs to one. */
  subject?: string;
  /** Why a value cannot be this point's, or null when it can. */
  invalid(value: unknown): string | null;
  /** Whether an observed value is the inferred one (what a single observation can tell; default: equal as JSON). */
  same(inferred: unknown, observed: unknown): boolean;
}

const asJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): string | null =>
    typeof v === 'string' && (values as readonly string[]).includes(v) ? null : `one of ${values.join(', ')}`;

const statusIn =
  (low: number, high: number) =>
  (v: unknown): string | null =>
    Number.isInteger(v) && (v as number) >= low && (v as number) <= high ? null : `an integer from ${low} to ${high}`;

function retryDelayInvalid(v: unknown): string | null {
  const r = v as Partial<RetryDelay> | null;
  const ok =
    typeof r === 'object' &&
    r !== null &&
    typeof r.header === 'string' &&
    /^[A-Za-z0-9-]{1,64}$/.test(r.header) &&
    (RETRY_DELAY_UNITS as readonly string[]).includes(String(r.unit));
  return ok ? null : `{"header": "<name>", "unit": one of ${RETRY_DELAY_UNITS.join(', ')}}`;
}

/** Retry delays are the same when the header is (HTTP field names ignore case) and the unit is. */
function sameDelay(a: unknown, b: unknown): boolean {
  const x = a as RetryDelay;
  const y = b as RetryDelay;
  return x?.header?.toLowerCase() === y?.header?.toLowerCase() && x?.unit === y?.unit;
}

/**
 * The order of a list without `sortBy`: a field as the target spells it (it may be one the contract's table does not
 * have), with an optional leading `-` for descending, or `none` when no field's order is the unsorted one.
 */
function orderInvalid(v: unknown): string | null {
  return typeof v === 'string' && (v === 'none' || /^-?[A-Za-z_][A-Za-z0-9_.]{0,99}$/.test(v))
    ? null
    : 'a field name, optionally with a leading - (descending), or none';
}

function address401Invalid(v: unknown): string | null {
  return typeof v === 'string' && isRfc9110Section401Address(v)
    ? null
    : 'an address of RFC 9110 section 15.5.2 (the RFC Editor, Datatracker or HTTP WG rendering)';
}

/** A permission name shaped `Domain.Resource.Access` (Authentication, point 4), or `none`. */
function permissionInvalid(v: unknown): string | null {
  return typeof v === 'string' && (v === 'none' || /^[A-Za-z][\w-]*(\.[A-Za-z][\w-]*){1,5}$/.test(v))
    ? null
    : 'a permission name (Domain.Resource.Access) or none';
}

/** The order a list has without `sortBy` (inferred: `id` ascending, mock/lists/sort.ts). */
export const INFERRED_DEFAULT_ORDER = 'id';

/** The inferred webhook attempt record (spec/schemas/notifications.ts: `success`, `trigger: Manual`). */
const INFERRED_ATTEMPT = {
  success: { field: 'success', form: 'boolean' },
  manual: { field: 'trigger', value: 'Manual' },
};

type PointInput<K extends DecisionKind> = Omit<DecisionPoint<K>, 'same'> & { same?: DecisionPoint<K>['same'] };

function point<K extends DecisionKind>(p: PointInput<K>): DecisionPoint {
  return { same: asJson, ...p } as DecisionPoint;
}

/** The points of one operation: its success status, the form and records of its answer, its order, its permission. */
function operationPoints(): DecisionPoint[] {
  const points: DecisionPoint[] = [];
  for (const op of OPERATIONS) {
    const id = op.operationId;
    if (op.success.provenance === 'inferred')
      points.push(
        point({
          id: `success-status:${id}`,
          kind: 'success-status',
          title: `Success status of ${id}`,
          inferred: op.success.status,
          subject: id,
          invalid: statusIn(200, 299),
        }),
      );
    if (op.list?.filterAndSort && op.list.fields.some((f) => f.sortable && f.name === INFERRED_DEFAULT_ORDER))
      points.push(
        point({
          id: `default-order:${id}`,
          kind: 'default-order',
          title: `Order of ${id} without sortBy`,
          inferred: INFERRED_DEFAULT_ORDER,
          subject: id,
          invalid: orderInvalid,
        }),
      );
    const form = collectionForm(op);
    if (form)
      points.push(
        point({
          id: `list-form:${id}`,
          kind: 'list-form',
          title: `Form of the answer of ${id}: the page envelope or a bare array`,
          inferred: form,
          subject: id,
          invalid: oneOf(LIST_FORMS),
        }),
      );
    if (op.list)
      points.push(
        point({
          id: `list-fields:${id}`,
          kind: 'list-fields',
          title: `Fields ${id} filters and sorts by, with their operators and the names filterBy takes`,
          inferred: contractListFields(op),
          subject: id,
          invalid: listFieldsInvalid,
          same: (a, b) => sameListFields(a as never, b as never),
        }),
      );
    const record = recordSchemaOf(op);
    // A success the contract gives no body may be answered with one ("Response ... of the delete operation: not
    // shown"); only a body the reference documents as none ("Success: no content") has no point.
    const bodyless = op.success.schema === null && op.success.body?.provenance !== 'documented';
    if (record || bodyless)
      points.push(
        point({
          id: `record-fields:${id}`,
          kind: 'record-fields',
          title: `Members of the records ${id} answers${op.list ? ' (its items)' : record ? '' : ' (none: no body)'}`,
          inferred: record ? shapeOfSchema(record) : { fields: [] },
          subject: id,
          invalid: shapeInvalid,
          same: (a, b) => sameShape(a as never, b as never),
        }),
      );
    if (op.permission.provenance === 'inferred')
      points.push(
        point({
          id: `permission:${id}`,
          kind: 'permission',
          title: `Permission ${id} needs (named by its 403)`,
          inferred: op.permission.name ?? 'none',
          subject: id,
          invalid: permissionInvalid,
        }),
      );
  }
  return points;
}

/** The points that are one rule of the whole deployment. */
function rulePoints(): DecisionPoint[] {
  return [
    point({
      id: 'retry-delay',
      kind: 'retry-delay',
      title: 'Header and unit of the retry delay of a 429',
      inferred: { header: 'Retry-After', unit: 'seconds' },
      invalid: retryDelayInvalid,
      same: sameDelay,
    }),
    point({
      id: 'other-api-key-with-bearer',
      kind: 'other-api-key-with-bearer',
      title: 'A valid bearer token with a different, unknown X-Api-Key',
      inferred: 'refused',
      invalid: oneOf(OTHER_KEY_RULES),
    }),
    point({
      id: 'key-repeating-bearer',
      kind: 'key-repeating-bearer',
      title: 'A bearer token repeated in X-Api-Key',
      inferred: 'accepted',
      invalid: oneOf(KEY_RULES),
    }),
    point({
      id: 'api-key-alone',
      kind: 'api-key-alone',
      title: 'An API key alone (X-Api-Key without a bearer token) on a list request',
      inferred: 'accepted',
      invalid: oneOf(KEY_RULES),
    }),
    point({
      id: 'text-case',
      kind: 'text-case',
      title: 'Case sensitivity of Contains, StartsWith and EndsWith',
      inferred: 'insensitive',
      invalid: oneOf(TEXT_CASES),
    }),
    point({
      id: 'equals-case',
      kind: 'equals-case',
      title: 'Case sensitivity of Equals on text fields',
      inferred: 'sensitive',
      invalid: oneOf(TEXT_CASES),
    }),
    point({
      id: 'field-name-case',
      kind: 'field-name-case',
      title: 'Case sensitivity of field names in filterBy',
      inferred: 'insensitive',
      invalid: oneOf(TEXT_CASES),
    }),
    point({
      id: 'filter-precedence',
      kind: 'filter-precedence',
      title: 'Precedence of && over || in filterBy',
      inferred: 'and-first',
      invalid: oneOf(PRECEDENCES),
    }),
    point({
      id: 'date-only-equals',
      kind: 'date-only-equals',
      title: 'What Equals with a date-only value matches on a date-time field',
      inferred: 'whole-day',
      invalid: oneOf(DATE_ONLY_RULES),
    }),
    point({
      id: 'unknown-sort-field',
      kind: 'unknown-sort-field',
      title: 'A sortBy naming a field the list does not have',
      inferred: 'refused',
      invalid: oneOf(UNKNOWN_SORT_RULES),
    }),
    point({
      id: 'null-order',
      kind: 'null-order',
      title: 'Place of null values in an ascending sort',
      inferred: 'first',
      invalid: oneOf(NULL_ORDERS),
    }),
    point({
      id: 'problem-media-type',
      kind: 'problem-media-type',
      title: 'Media type of problem bodies',
      inferred: 'application/problem+json',
      invalid: oneOf(PROBLEM_MEDIA_TYPES),
    }),
    point({
      id: 'problem-401-type',
      kind: 'problem-401-type',
      title: 'The address the plain 401 gives as its type',
      inferred: RFC9110_401_TYPE,
      invalid: address401Invalid,
    }),
    point({
      id: 'catalog-texts',
      kind: 'catalog-texts',
      title: "Titles and descriptions of the error catalog: the contract's, or the deployment's own",
      inferred: 'contract',
      invalid: oneOf(CATALOG_TEXTS),
    }),
    point({
      id: 'webhook-payload',
      kind: 'webhook-payload',
      title: 'Members of a delivered webhook payload',
      inferred: shapeOfSchema({ $ref: '#/components/schemas/WebhookPayload' }),
      invalid: shapeInvalid,
      same: (a, b) => sameShape(a as never, b as never),
    }),
    point({
      id: 'webhook-event-id',
      kind: 'webhook-event-id',
      title: 'The header and payload member that carry the event identifier of a delivery',
      inferred: { header: 'X-Event-Id', field: 'id' },
      invalid: eventIdInvalid,
      same: (a, b) => sameEventId(a as never, b as never),
    }),
    point({
      id: 'webhook-attempt',
      kind: 'webhook-attempt',
      title: 'How an attempt record tells a delivery accepted and a manual retry',
      inferred: INFERRED_ATTEMPT as DecisionValues['webhook-attempt'],
      invalid: attemptInvalid,
    }),
  ];
}

function buildPoints(): DecisionPoint[] {
  const points: DecisionPoint[] = [];
  for (const code of ERROR_CODES) {
    const s = statusOf(code);
    if (s.provenance !== 'inferred') continue;
    points.push(
      point({
        id: `code-status:${code}`,
        kind: 'code-status',
        title: `HTTP status of ${code}`,
        inferred: s.status,
        subject: code,
        invalid: statusIn(400, 599),
      }),
    );
  }
  return [...points, ...operationPoints(), ...rulePoints()];
}

let points: ReadonlyMap<string, DecisionPoint> | undefined;

/**
 * Every decision point of the contract, by id. Built on first use (inferred; measured on the compiled CLI): ~18 ms of
 * CPU, once per process, that a mock started without `--decisions` never needed at its start.
 */
export function decisionPoints(): ReadonlyMap<string, DecisionPoint> {
  points ??= new Map(buildPoints().map((p) => [p.id, p]));
  return points;
}

/** The id of the status point of a code. */
export function codeStatusId(code: ErrorCode | string): string {
  return `code-status:${code}`;
}
