import { ERROR_CODES, statusOf, type ErrorCode } from '../errors/index.js';
import { OPERATIONS, type OperationDef } from '../operations/index.js';

/**
 * The points where the contract decides what the reference leaves open ("not shown") and a real deployment can
 * settle: each has an id, the contract's inferred value and a test of the values a deployment may have instead.
 * `opsapi learn` observes them, `opsapi mock --decisions` adopts them, `opsapi conform --decisions` expects them and
 * `opsapi spec --decisions` publishes them as observed.
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

/** Whether text operators (Contains, StartsWith, EndsWith) compare letters regardless of case. */
export const TEXT_CASES = ['insensitive', 'sensitive'] as const;
export type TextCase = (typeof TEXT_CASES)[number];

/** The value of each kind of decision point. */
export interface DecisionValues {
  'code-status': number;
  'success-status': number;
  'retry-delay': RetryDelay;
  'other-api-key-with-bearer': OtherKeyRule;
  'text-case': TextCase;
  'equals-case': TextCase;
  'default-order': string;
}
export type DecisionKind = keyof DecisionValues;

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
}

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

/** A sortBy expression of one field of the list, with an optional leading `-`. */
function orderInvalid(op: OperationDef) {
  const names = (op.list?.fields ?? []).filter((f) => f.sortable).map((f) => f.name);
  return (v: unknown): string | null =>
    typeof v === 'string' && names.includes(v.replace(/^-/, ''))
      ? null
      : `a sortable field of ${op.operationId}, optionally with a leading - (${names.join(', ')})`;
}

/** The order a list has without `sortBy` (inferred: `id` ascending, mock/lists/sort.ts). */
export const INFERRED_DEFAULT_ORDER = 'id';

function buildPoints(): DecisionPoint[] {
  const points: DecisionPoint[] = [];
  for (const code of ERROR_CODES) {
    const s = statusOf(code);
    if (s.provenance !== 'inferred') continue;
    points.push({
      id: `code-status:${code}`,
      kind: 'code-status',
      title: `HTTP status of ${code}`,
      inferred: s.status,
      subject: code,
      invalid: statusIn(400, 599),
    });
  }
  for (const op of OPERATIONS) {
    if (op.success.provenance === 'inferred')
      points.push({
        id: `success-status:${op.operationId}`,
        kind: 'success-status',
        title: `Success status of ${op.operationId}`,
        inferred: op.success.status,
        subject: op.operationId,
        invalid: statusIn(200, 299),
      });
    if (op.list?.filterAndSort && op.list.fields.some((f) => f.sortable && f.name === INFERRED_DEFAULT_ORDER))
      points.push({
        id: `default-order:${op.operationId}`,
        kind: 'default-order',
        title: `Order of ${op.operationId} without sortBy`,
        inferred: INFERRED_DEFAULT_ORDER,
        subject: op.operationId,
        invalid: orderInvalid(op),
      });
  }
  points.push(
    {
      id: 'retry-delay',
      kind: 'retry-delay',
      title: 'Header and unit of the retry delay of a 429',
      inferred: { header: 'Retry-After', unit: 'seconds' },
      invalid: retryDelayInvalid,
    },
    {
      id: 'other-api-key-with-bearer',
      kind: 'other-api-key-with-bearer',
      title: 'A valid bearer token with a different, unknown X-Api-Key',
      inferred: 'refused',
      invalid: oneOf(OTHER_KEY_RULES),
    },
    {
      id: 'text-case',
      kind: 'text-case',
      title: 'Case sensitivity of Contains, StartsWith and EndsWith',
      inferred: 'insensitive',
      invalid: oneOf(TEXT_CASES),
    },
    {
      id: 'equals-case',
      kind: 'equals-case',
      title: 'Case sensitivity of Equals on text fields',
      inferred: 'sensitive',
      invalid: oneOf(TEXT_CASES),
    },
  );
  return points;
}

/** Every decision point of the contract, by id. */
export const DECISION_POINTS: ReadonlyMap<string, DecisionPoint> = new Map(buildPoints().map((p) => [p.id, p]));

/** The decision point of an id, or undefined. */
export function decisionPoint(id: string): DecisionPoint | undefined {
  return DECISION_POINTS.get(id);
}

/** The id of the status point of a code. */
export function codeStatusId(code: ErrorCode | string): string {
  return `code-status:${code}`;
}
