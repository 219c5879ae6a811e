import type { FieldType } from '../../spec/lists/operators.js';

/**
 * What a list item's values say about a field. The reference names almost no list fields ("Field names for filterBy
 * and sortBy are endpoint specific"), so the runner types the fields a target exposes from the values it returns.
 */

/** An ISO 8601 date or date-time, as a JSON API sends dates (`2025-03-01`, `2025-03-01T08:00:00Z`, with offset). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const isIsoDate = (v: unknown): v is string =>
  typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v));

/**
 * The type of a field from its non-null values: every value a date string → date; every value a string → string;
 * numbers → number; booleans → boolean. Undefined when the values are mixed, structured or all null (nothing to
 * filter or sort by).
 */
export function typeOfValues(values: readonly unknown[]): FieldType | undefined {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return undefined;
  if (present.every(isIsoDate)) return 'date';
  if (present.every((v) => typeof v === 'string')) return 'string';
  if (present.every((v) => typeof v === 'number' && Number.isFinite(v))) return 'number';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  return undefined;
}

/** `createdAt` → `CreatedAt`: the reference writes filter fields in PascalCase ("Date fields such as `CreatedAt`"). */
export function pascalCase(name: string): string {
  return name.length === 0 ? name : `${name[0]?.toUpperCase()}${name.slice(1)}`;
}

/**
 * The date fields the reference names: "Date fields such as `CreatedAt` and `LastModifiedAt` are filterable and
 * sortable where an endpoint exposes them" (Endpoints / List and search endpoints). Matched without regard to case,
 * since the reference writes them in PascalCase and a JSON API may send them in camelCase.
 */
const DOCUMENTED_DATE_FIELDS = ['CreatedAt', 'LastModifiedAt'] as const;

export function isDocumentedDateField(name: string): boolean {
  return DOCUMENTED_DATE_FIELDS.some((d) => d.toLowerCase() === name.toLowerCase());
}
