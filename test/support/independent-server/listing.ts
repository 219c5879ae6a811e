import { type FieldKind, type FieldSchema, matches, parseFilter, resolveField } from './filter.js';
import { ApiProblem } from './problems.js';

/**
 * Paging, filtering and sorting shared by every list (List and search endpoints: general rules; Resources / Page
 * of results).
 */
export interface ListSpec {
  /** Fields usable in filterBy and sortBy, by JSON property name. */
  fields: FieldSchema;
  /** Whether filterBy is accepted; on other lists any filterBy is refused with 400 (this server's choice). */
  filterable: boolean;
  /** Order without sortBy (not shown in the reference): this server sorts by the name-like field. */
  defaultOrder: ReadonlyArray<{ field: string; descending?: boolean }>;
}

/** Raw list parameters, from a query string (strings) or from a search body (any JSON). */
export interface ListParams {
  pageNumber?: unknown;
  pageSize?: unknown;
  filterBy?: unknown;
  sortBy?: unknown;
}

interface Page<T> {
  results: T[];
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}

const MAX_PAGE_SIZE = 1000;

/** The list parameters of a query string; a repeated parameter counts by its first value. */
export function paramsFromQuery(query: URLSearchParams): ListParams {
  const get = (name: string): string | undefined => query.get(name) ?? undefined;
  return { pageNumber: get('pageNumber'), pageSize: get('pageSize'), filterBy: get('filterBy'), sortBy: get('sortBy') };
}

/** A whole number from a query string or JSON; anything else (or an unsafe size) is refused with 422. */
function wholeNumber(name: string, raw: unknown): number {
  let value: number | undefined;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) value = raw;
  else if (typeof raw === 'string' && /^\s*\d{1,15}\s*$/.test(raw)) value = Number(raw);
  if (value === undefined) throw ApiProblem.validation(`${name} must be a whole number`);
  return value;
}

function optionalText(name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw ApiProblem.validation(`${name} must be a string`);
  return raw;
}

function compareValues(kind: FieldKind, a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  // Nulls after every value in ascending order (so before them in descending order): this server's choice.
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (kind === 'date') return Date.parse(String(a)) - Date.parse(String(b));
  if (kind === 'number') return (a as number) - (b as number);
  if (kind === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  // Ordinal (UTF-16 code unit) order, not locale order.
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The sort keys of `sortBy`: comma separated names, `-` for descending; unknown names are ignored. */
function sortKeys(spec: ListSpec, sortBy: string | undefined, ignoreDescending: boolean) {
  const keys: { field: string; descending: boolean }[] = [];
  for (const part of (sortBy ?? '').split(',')) {
    const trimmed = part.trim();
    const descending = trimmed.startsWith('-');
    const field = resolveField(spec.fields, descending ? trimmed.slice(1).trim() : trimmed);
    if (field) keys.push({ field, descending: descending && !ignoreDescending });
  }
  return keys.length > 0 ? keys : spec.defaultOrder.map((k) => ({ field: k.field, descending: k.descending ?? false }));
}

/** Filters, sorts and cuts one page of JSON views; each view has a string `id` used to break ties. */
export function pageOf<T extends Record<string, unknown>>(
  views: readonly T[],
  spec: ListSpec,
  params: ListParams,
  faults: ReadonlySet<string>,
): Page<T> {
  const pageNumber = params.pageNumber === undefined ? 1 : wholeNumber('pageNumber', params.pageNumber);
  const defaultSize = faults.has('page-size-default-20') ? 20 : 25;
  const pageSize = params.pageSize === undefined ? defaultSize : wholeNumber('pageSize', params.pageSize);
  if (pageNumber < 1) throw ApiProblem.validation('pageNumber must be 1 or more');
  const maxSize = faults.has('page-size-1001-accepted') ? Number.MAX_SAFE_INTEGER : MAX_PAGE_SIZE;
  if (pageSize < 1 || pageSize > maxSize)
    throw ApiProblem.validation(`pageSize must be between 1 and ${MAX_PAGE_SIZE}`);
  const filterBy = optionalText('filterBy', params.filterBy);
  const sortBy = optionalText('sortBy', params.sortBy);

  let selected = [...views];
  if (filterBy !== undefined && filterBy.trim() !== '') {
    const options = {
      ignoreUnknownFields: faults.has('filter-unknown-column-accepted'),
      containsAsEquals: faults.has('contains-as-equals'),
    };
    if (!spec.filterable) {
      if (!options.ignoreUnknownFields)
        throw ApiProblem.coded('COMMON.QUERY.FILTER_PARSING_FAILED', 'this list has no filterable column', {
          filterBy,
        });
    } else {
      const filter = parseFilter(filterBy, spec.fields, options);
      selected = selected.filter((view) => matches(filter, view, options));
    }
  }

  const keys = sortKeys(spec, sortBy, faults.has('sort-descending-ignored'));
  selected.sort((a, b) => {
    for (const key of keys) {
      const order = compareValues(spec.fields[key.field] ?? 'string', a[key.field], b[key.field]);
      if (order !== 0) return key.descending ? -order : order;
    }
    return compareValues('string', a.id, b.id);
  });

  const totalCount = selected.length;
  const totalPages = Math.ceil(totalCount / pageSize) + (faults.has('total-pages-off-by-one') ? 1 : 0);
  const start = (pageNumber - 1) * pageSize;
  const results = start < totalCount ? selected.slice(start, start + pageSize) : [];
  return { results, pageNumber, pageSize, totalPages, totalCount };
}
