import type { ListField } from '../../spec/lists/fields.js';

/** Compares two values of a list field in ascending order: negative, 0, positive. */
type Compare = (a: unknown, b: unknown) => number;

// Collation is not stated by the reference: ordinal, case-insensitive and locale orders are all accepted here.
const collator = new Intl.Collator('en');
const ordinal: Compare = (a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
const folded: Compare = (a, b) => ordinal(String(a).toLowerCase(), String(b).toLowerCase());
const TEXT_ORDERS: Compare[] = [ordinal, folded, (a, b) => collator.compare(String(a), String(b))];

/** The orders a field's values may follow: for text, collation is not stated, so ordinal, folded and locale orders. */
export function typedCompare(field: Pick<ListField, 'type'>): Compare[] {
  switch (field.type) {
    case 'number':
      return [(a, b) => (a as number) - (b as number)];
    case 'date':
      return [(a, b) => Date.parse(String(a)) - Date.parse(String(b))];
    case 'boolean':
      return [(a, b) => Number(a) - Number(b)];
    default:
      return TEXT_ORDERS;
  }
}

/** Whether non-null values are ordered (ascending or descending) under at least one of the comparators. */
export function ordered(values: unknown[], compares: Compare[], descending: boolean): boolean {
  const present = values.filter((v) => v !== null && v !== undefined);
  return compares.some((cmp) =>
    present.every((v, i) => i === 0 || (descending ? cmp(present[i - 1], v) >= 0 : cmp(present[i - 1], v) <= 0)),
  );
}

/** How many distinct non-null values there are. */
export function distinctCount(values: unknown[]): number {
  return new Set(values.filter((v) => v !== null && v !== undefined).map((v) => JSON.stringify(v))).size;
}
