import type { ListField } from '../../spec/lists/fields.js';
import type { FilterOperator } from '../../spec/lists/operators.js';

export type Item = Record<string, unknown>;

/** One filter condition built from data the run read, with what it must select. */
export interface FilterCase {
  field: CaseField;
  operator: FilterOperator;
  text: string;
  /** Items the condition must return under the strictest reading (case-sensitive text). */
  strict: (item: Item) => boolean;
  /** Items it may return under the most lenient reading the reference allows (case-insensitive text). */
  lenient: (item: Item) => boolean;
}

/** A value that needs no quoting in the filter language: no quotes, parentheses, brackets, `&`, `|`, or edge spaces. */
function safe(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a safe filter value must not hold
  return value.length > 0 && value.length <= 200 && value === value.trim() && !/["()&|[\]\\\u0000-\u001f]/.test(value);
}

const isNull = (v: unknown) => v === null || v === undefined;

/** Picks a middle element, for values that are neither the smallest nor the largest. */
function middle<T>(values: T[], upper = false): T | undefined {
  if (values.length === 0) return undefined;
  return values[upper ? Math.ceil(values.length / 2) : Math.floor((values.length - 1) / 2)];
}

const NUMERIC: Partial<Record<FilterOperator, (a: number, b: number) => boolean>> = {
  Equals: (a, b) => a === b,
  Gt: (a, b) => a > b,
  Gte: (a, b) => a >= b,
  Lt: (a, b) => a < b,
  Lte: (a, b) => a <= b,
  IsAfter: (a, b) => a > b,
  IsOnOrAfter: (a, b) => a >= b,
  IsBefore: (a, b) => a < b,
  IsOnOrBefore: (a, b) => a <= b,
};

/**
 * A field as a filter names it: `name` is the member of the items, `query` the name `filterBy` takes (the target's
 * own spelling, e.g. `CreatedAt` for a `createdAt` member; the member's name when absent).
 */
export type CaseField = ListField & { readonly query?: string };

/** Builds a condition for a field and operator from the items read, or says why the data cannot exercise it. */
export function buildCase(items: Item[], field: CaseField, operator: FilterOperator): FilterCase | string {
  const name = field.name;
  const q = field.query ?? name;
  const get = (item: Item) => item[name];
  const base = { field, operator };
  if (operator === 'IsNull') {
    if (!items.some((i) => isNull(get(i)))) return `no item has a null ${name}`;
    return { ...base, text: `${q}[IsNull]`, strict: (i) => isNull(get(i)), lenient: (i) => isNull(get(i)) };
  }
  if (operator === 'IsNotNull') {
    if (!items.some((i) => !isNull(get(i)))) return `every ${name} is null`;
    return { ...base, text: `${q}[IsNotNull]`, strict: (i) => !isNull(get(i)), lenient: (i) => !isNull(get(i)) };
  }
  if (field.type === 'string' || field.type === 'enum') {
    const values = items.map(get).filter((v): v is string => typeof v === 'string' && safe(v));
    const ordered = [...values.slice(Math.floor(values.length / 2)), ...values.slice(0, Math.floor(values.length / 2))];
    const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
    if (operator === 'Equals') {
      const v = ordered[0];
      if (v === undefined) return `no ${name} value usable without quoting`;
      if (field.type === 'enum')
        return { ...base, text: `${q}[Equals]${v}`, strict: (i) => get(i) === v, lenient: (i) => get(i) === v };
      return {
        ...base,
        text: `${q}[Equals]${v}`,
        strict: (i) => get(i) === v,
        lenient: (i) => lower(get(i)) === v.toLowerCase(),
      };
    }
    for (const v of ordered) {
      if (v.length < 4) continue;
      const n = Math.min(4, v.length - 2);
      const part =
        operator === 'Contains'
          ? v.slice(1, 1 + n)
          : operator === 'StartsWith'
            ? v.slice(0, n + 1)
            : v.slice(v.length - n - 1);
      if (!safe(part) || part.length < 2 || part === v || !/[A-Za-z0-9]/.test(part)) continue;
      const p = part.toLowerCase();
      if (operator === 'Contains')
        return {
          ...base,
          text: `${q}[Contains]${part}`,
          strict: (i) => typeof get(i) === 'string' && (get(i) as string).includes(part),
          lenient: (i) => lower(get(i))?.includes(p) === true,
        };
      if (operator === 'StartsWith')
        return {
          ...base,
          text: `${q}[StartsWith]${part}`,
          strict: (i) => typeof get(i) === 'string' && (get(i) as string).startsWith(part),
          lenient: (i) => lower(get(i))?.startsWith(p) === true,
        };
      if (operator === 'EndsWith')
        return {
          ...base,
          text: `${q}[EndsWith]${part}`,
          strict: (i) => typeof get(i) === 'string' && (get(i) as string).endsWith(part),
          lenient: (i) => lower(get(i))?.endsWith(p) === true,
        };
    }
    return `no ${name} value of 4 or more characters usable without quoting`;
  }
  if (field.type === 'boolean') {
    if (operator !== 'Equals') return `${operator} does not apply to a boolean`;
    const values = items.map(get).filter((v): v is boolean => typeof v === 'boolean');
    const v = values.includes(false) ? false : values[0];
    if (v === undefined) return `no ${name} value`;
    return { ...base, text: `${q}[Equals]${String(v)}`, strict: (i) => get(i) === v, lenient: (i) => get(i) === v };
  }
  const compare = NUMERIC[operator];
  if (!compare) return `${operator} does not apply to ${field.type}`;
  if (field.type === 'number') {
    const values = [
      ...new Set(items.map(get).filter((v): v is number => typeof v === 'number' && Number.isFinite(v))),
    ].sort((a, b) => a - b);
    const upper = operator === 'Lt' || operator === 'Lte';
    const v = operator === 'Equals' ? values[0] : middle(values, upper);
    if (v === undefined || (operator !== 'Equals' && values.length < 2))
      return `fewer than two distinct ${name} values`;
    const test = (i: Item) => typeof get(i) === 'number' && compare(get(i) as number, v);
    return { ...base, text: `${q}[${operator}]${String(v)}`, strict: test, lenient: test };
  }
  // Dates: compared as instants, with a date-time value taken from an item (a date-only value means whole days: inferred).
  const byInstant = new Map<number, string>();
  for (const v of items.map(get))
    if (typeof v === 'string' && v.length > 10 && safe(v) && !Number.isNaN(Date.parse(v)))
      byInstant.set(Date.parse(v), v);
  const instants = [...byInstant.keys()].sort((a, b) => a - b);
  const before = ['Lt', 'Lte', 'IsBefore', 'IsOnOrBefore'].includes(operator);
  const t = operator === 'Equals' ? instants[0] : middle(instants, before);
  if (t === undefined || (operator !== 'Equals' && instants.length < 2))
    return `fewer than two distinct ${name} instants`;
  const test = (i: Item) => typeof get(i) === 'string' && compare(Date.parse(get(i) as string), t);
  return { ...base, text: `${q}[${operator}]${byInstant.get(t) as string}`, strict: test, lenient: test };
}
