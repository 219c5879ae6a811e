import type { ListField, ListFieldTable } from '../../spec/lists/fields.js';

/**
 * Case-insensitive lookup of list fields by name.
 * Filter field names in the reference are PascalCase (`CreatedAt`) while JSON properties are camelCase
 * (`createdAt`), so `filterBy` and `sortBy` match field names ignoring case.
 */
const indexes = new WeakMap<ListFieldTable, Map<string, ListField>>();

function indexOf(fields: ListFieldTable): Map<string, ListField> {
  let index = indexes.get(fields);
  if (!index) {
    index = new Map();
    for (const field of fields) {
      const key = field.name.toLowerCase();
      if (!index.has(key)) index.set(key, field);
    }
    indexes.set(fields, index);
  }
  return index;
}

/** The field named `name` (any case), or undefined. */
export function findField(fields: ListFieldTable, name: string): ListField | undefined {
  return indexOf(fields).get(name.toLowerCase());
}

const tableIds = new WeakMap<ListFieldTable, number>();
let nextTableId = 1;

/** A stable small number identifying a field table object, for cache keys. */
export function tableId(fields: ListFieldTable): number {
  let id = tableIds.get(fields);
  if (id === undefined) {
    id = nextTableId++;
    tableIds.set(fields, id);
  }
  return id;
}
