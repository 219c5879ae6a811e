import type { ListField } from '../../spec/lists/fields.js';
import { fieldAccessor } from './access.js';
import { toMillis } from './dates.js';

/**
 * Derived per-item values the engine filters and sorts on. Computing them once per item (and caching them in a
 * `ListCollection`) keeps requests free of per-item `toLowerCase()` and date parsing.
 *
 * - `raw`: the property value, `undefined` read as `null` (used by Equals on strings/numbers/booleans/enums and by IsNull).
 * - `lower`: the lowercased string for Contains/StartsWith/EndsWith; `null` when the value is not a string.
 * - `millis`: epoch milliseconds of a date property; `NaN` when null or not a valid date.
 * - `key`: the sort key: string (string/enum), number, boolean, or epoch milliseconds (date); `null` when the value
 *   is missing or not of the field's type (such values sort like null).
 */
export type ColumnKind = 'raw' | 'lower' | 'millis' | 'key';

export type Extractor = (item: unknown) => unknown;

/** Something that holds derived values per item position (a slot), e.g. a `ListCollection`. */
export interface ColumnSource {
  column(field: ListField, kind: ColumnKind): readonly unknown[];
}

/** Cache key of a column: the same property read as another type is a different column. */
export function columnKey(field: ListField, kind: ColumnKind): string {
  return `${kind}|${field.type}|${field.name}`;
}

export function extractor(field: ListField, kind: ColumnKind): Extractor {
  const get = fieldAccessor(field.name);
  switch (kind) {
    case 'raw':
      return get;
    case 'lower':
      return (item) => {
        const v = get(item);
        return typeof v === 'string' ? v.toLowerCase() : null;
      };
    case 'millis':
      return (item) => toMillis(get(item));
    case 'key':
      return keyExtractor(field, get);
  }
}

function keyExtractor(field: ListField, get: Extractor): Extractor {
  switch (field.type) {
    case 'string':
    case 'enum':
      return (item) => {
        const v = get(item);
        return typeof v === 'string' ? v : null;
      };
    case 'number':
      return (item) => {
        const v = get(item);
        return typeof v === 'number' && !Number.isNaN(v) ? v : null;
      };
    case 'boolean':
      return (item) => {
        const v = get(item);
        return typeof v === 'boolean' ? v : null;
      };
    case 'date':
      return (item) => {
        const ms = toMillis(get(item));
        return Number.isNaN(ms) ? null : ms;
      };
  }
}

/** The value a column holds for a missing item (a free slot). */
export function emptyValue(kind: ColumnKind): unknown {
  return kind === 'millis' ? Number.NaN : null;
}

/** Builds a column over an array of items (holes read as missing). */
function buildColumn(items: readonly unknown[], field: ListField, kind: ColumnKind): unknown[] {
  const extract = extractor(field, kind);
  const empty = emptyValue(kind);
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out.push(item === undefined ? empty : extract(item));
  }
  return out;
}

/** A column source over a plain array of items, computing columns on demand (used for non-collection sources). */
export class ArrayColumns implements ColumnSource {
  private readonly cache = new Map<string, unknown[]>();

  constructor(private readonly items: readonly unknown[]) {}

  column(field: ListField, kind: ColumnKind): readonly unknown[] {
    const key = columnKey(field, kind);
    let col = this.cache.get(key);
    if (!col) {
      col = buildColumn(this.items, field, kind);
      this.cache.set(key, col);
    }
    return col;
  }
}
