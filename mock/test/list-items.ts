import { expect } from 'vitest';
import type { ListField } from '../../spec/lists/fields.js';

/** A list item as the tests read it, and list parameters (query or body). */
export type Item = Record<string, unknown>;
export type Params = Record<string, string | number>;

/** The identity of a list item (event descriptors are listed without an id; the engine orders them by `name@version`). */
export function idOf(item: Item): string {
  return typeof item.id === 'string' ? item.id : `${String(item.eventName)}@${String(item.eventVersion)}`;
}

/** The sort key of a field value: null when missing; ordinal strings, numbers, booleans, instants. */
function keyOf(item: Item, field: ListField): string | number | boolean | null {
  const v = item[field.name];
  if (v === null || v === undefined) return null;
  if (field.type === 'date') return Date.parse(String(v));
  return v as string | number | boolean;
}

/** Asserts an order: by the field (nulls first ascending, last descending), ties by id ascending. */
export function expectOrdered(items: Item[], field: ListField, descending: boolean): void {
  expect(firstOutOfOrder(items, field, descending), `${field.name} ${descending ? 'desc' : 'asc'}`).toBeUndefined();
}

/** The first pair of neighbours out of that order, described, or undefined when the items are in order. */
function firstOutOfOrder(items: Item[], field: ListField, descending: boolean): string | undefined {
  const sign = descending ? -1 : 1;
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const ka = keyOf(a, field);
    const kb = keyOf(b, field);
    let cmp: number;
    if (ka === kb) cmp = 0;
    else if (ka === null) cmp = -sign;
    else if (kb === null) cmp = sign;
    else cmp = ka < kb ? -sign : sign;
    if (cmp > 0) return `at ${i}: ${JSON.stringify(ka)} then ${JSON.stringify(kb)}`;
    if (cmp === 0 && !(idOf(a) < idOf(b))) return `tiebreak at ${i}: ${idOf(a)} then ${idOf(b)}`;
  }
  return undefined;
}
