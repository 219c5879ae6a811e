import { FILTER_OPERATORS, type FieldType, type FilterOperator } from '../lists/operators.js';

/**
 * The structured values of decision points about records: which members a record carries (Resources: "Other
 * fields: not shown"), which fields a list filters and sorts by (Endpoints / List and search endpoints: "which fields
 * each endpoint supports and which operators each field supports: not shown"), and how a webhook delivery names its
 * event and records its attempts (Events, point 6). Each with a test of its values and an equality that ignores what
 * a single observation cannot settle.
 */

/** The JSON type of a value (integers are numbers: an observation of `5` does not say the field is never `5.5`). */
export const JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** One member of a record: its name as the target spells it, the JSON types seen, and whether every record had it. */
export interface FieldShape {
  name: string;
  types: JsonType[];
  always: boolean;
}

/** The members of the records an operation answers (list items, or the one object it returns). */
export interface RecordShape {
  fields: FieldShape[];
}

/** A field a list filters or sorts by, as the target takes it. */
export interface LearnedListField {
  /** The member of the items. */
  name: string;
  /** The name `filterBy` and `sortBy` take (the member's name, or its PascalCase form). */
  query: string;
  type: FieldType;
  /** Operators `filterBy` takes on it (none: it does not filter). */
  operators: FilterOperator[];
  sortable: boolean;
}

/** Where a webhook delivery carries its event identifier: a header, and the payload member holding the same value. */
export interface EventIdCarrier {
  header: string | null;
  field: string | null;
}

/**
 * How an attempt record tells that the receiver accepted the delivery (a boolean member, or a member holding the
 * receiver's 2xx status) and that an attempt was a manual retry (a member with a value of its own).
 */
export interface AttemptRecord {
  success: { field: string; form: 'boolean' | 'status-code' } | null;
  manual: { field: string; value: string | boolean } | null;
}

const MEMBER = /^[A-Za-z_$][\w$.-]{0,99}$/;
const HEADER = /^[A-Za-z0-9-]{1,64}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON type of a value. */
function jsonTypeOf(value: unknown): JsonType {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** Accumulates the shape of records seen one by one. */
export class ShapeOf {
  private readonly seen = new Map<string, { types: Set<JsonType>; count: number }>();
  private records = 0;

  add(record: Record<string, unknown>): void {
    this.records++;
    for (const [name, value] of Object.entries(record)) {
      let field = this.seen.get(name);
      if (!field) {
        field = { types: new Set(), count: 0 };
        this.seen.set(name, field);
      }
      field.types.add(jsonTypeOf(value));
      field.count++;
    }
  }

  get size(): number {
    return this.records;
  }

  /** The shape, members in name order (so two shapes compare as JSON). */
  shape(): RecordShape {
    const fields = [...this.seen]
      .filter(([name]) => MEMBER.test(name))
      .slice(0, 200)
      .map(([name, f]) => ({ name, types: [...f.types].sort(), always: f.count === this.records }));
    return { fields: fields.sort((a, b) => a.name.localeCompare(b.name)) };
  }
}

/** Why a value is not a record shape, or null. */
export function shapeInvalid(v: unknown): string | null {
  const ok =
    isObject(v) &&
    Array.isArray(v.fields) &&
    v.fields.length <= 200 &&
    v.fields.every(
      (f) =>
        isObject(f) &&
        typeof f.name === 'string' &&
        MEMBER.test(f.name) &&
        typeof f.always === 'boolean' &&
        Array.isArray(f.types) &&
        f.types.length > 0 &&
        f.types.every((t) => (JSON_TYPES as readonly unknown[]).includes(t)),
    );
  return ok ? null : `{"fields": [{"name", "types": [${JSON_TYPES.join('|')}], "always": boolean}]}`;
}

/**
 * Whether an observed shape is the inferred one: the same members, and every member the inferred shape requires
 * carried by every record observed. Types are left out (a member seen null in no record is not known never to be
 * null), and so is an optional member that happened to be in every record observed.
 */
export function sameShape(inferred: RecordShape, observed: RecordShape): boolean {
  const names = (s: RecordShape) => s.fields.map((f) => f.name).sort();
  if (JSON.stringify(names(inferred)) !== JSON.stringify(names(observed))) return false;
  const always = new Set(observed.fields.filter((f) => f.always).map((f) => f.name));
  return inferred.fields.every((f) => !f.always || always.has(f.name));
}

const FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'date', 'boolean', 'enum'];

/** Why a value is not a list field table, or null. */
export function listFieldsInvalid(v: unknown): string | null {
  const ok =
    Array.isArray(v) &&
    v.length <= 200 &&
    v.every(
      (f) =>
        isObject(f) &&
        typeof f.name === 'string' &&
        MEMBER.test(f.name) &&
        typeof f.query === 'string' &&
        MEMBER.test(f.query) &&
        FIELD_TYPES.includes(f.type as FieldType) &&
        typeof f.sortable === 'boolean' &&
        Array.isArray(f.operators) &&
        f.operators.every((op) => (FILTER_OPERATORS as readonly unknown[]).includes(op)),
    );
  return ok
    ? null
    : '[{"name", "query", "type": string|number|date|boolean|enum, "operators": [filter operators], "sortable": boolean}]';
}

/** A list field table reduced to what a deployment settles: the fields that filter or sort, names without case. */
function tableKey(fields: readonly LearnedListField[]): string {
  return JSON.stringify(
    fields
      .filter((f) => f.operators.length > 0 || f.sortable)
      .map((f) => [f.name.toLowerCase(), f.query.toLowerCase(), [...f.operators].sort(), f.sortable])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
}

/** Two tables are the same when the same fields filter (with the same operators) and sort; types are left out. */
export function sameListFields(a: readonly LearnedListField[], b: readonly LearnedListField[]): boolean {
  return tableKey(a) === tableKey(b);
}

/** Why a value is not an event id carrier, or null. */
export function eventIdInvalid(v: unknown): string | null {
  const ok =
    isObject(v) &&
    (v.header === null || (typeof v.header === 'string' && HEADER.test(v.header))) &&
    (v.field === null || (typeof v.field === 'string' && MEMBER.test(v.field))) &&
    (v.header !== null || v.field !== null);
  return ok ? null : '{"header": "<name>" or null, "field": "<member>" or null}, not both null';
}

/** Why a value is not an attempt record, or null. */
export function attemptInvalid(v: unknown): string | null {
  const success = isObject(v) ? v.success : undefined;
  const manual = isObject(v) ? v.manual : undefined;
  const ok =
    isObject(v) &&
    (success === null ||
      (isObject(success) &&
        typeof success.field === 'string' &&
        MEMBER.test(success.field) &&
        (success.form === 'boolean' || success.form === 'status-code'))) &&
    (manual === null ||
      (isObject(manual) &&
        typeof manual.field === 'string' &&
        MEMBER.test(manual.field) &&
        (typeof manual.value === 'boolean' || (typeof manual.value === 'string' && manual.value.length <= 100))));
  return ok
    ? null
    : '{"success": {"field", "form": boolean|status-code} or null, "manual": {"field", "value": text or boolean} or null}';
}

/** Same carriers: header names compare without case (HTTP field names are case-insensitive). */
export function sameEventId(a: EventIdCarrier, b: EventIdCarrier): boolean {
  return (a.header ?? '').toLowerCase() === (b.header ?? '').toLowerCase() && a.field === b.field;
}
