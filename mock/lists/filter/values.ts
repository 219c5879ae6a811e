import type { ListField } from '../../../spec/lists/fields.js';

/**
 * Typed parsing of filter values.
 * - number: an optionally signed decimal (`10`, `-1.5`, `.5`, `2e3`); must be finite. No hex, `Infinity`, `NaN`,
 *   separators or surrounding spaces.
 * - date: `YYYY-MM-DD` (a whole UTC day) or a date-time with `Z` or `±HH:MM` (see `parseDateValue` in `../dates.ts`).
 * - boolean: `true` / `false`, any case.
 * - enum: exactly one of the field's `enumValues` (case-sensitive); any non-empty text when the field lists none.
 */
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function parseNumberValue(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export function parseBooleanValue(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

export function parseEnumValue(text: string, field: ListField): string | undefined {
  if (!field.enumValues) return text;
  return field.enumValues.includes(text) ? text : undefined;
}
