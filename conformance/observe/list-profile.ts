import type { ListField } from '../../spec/lists/fields.js';
import { OPERATORS_BY_TYPE, type FilterOperator } from '../../spec/lists/operators.js';
import type { Exchange } from '../wire/client.js';
import type { CheckContext } from '../context.js';
import { identity, listSpec, pageOf, problemOf, type ListData } from '../helpers.js';
import { distinctCount, ordered, typedCompare } from '../rules/order.js';
import { buildCase } from './filter-case.js';
import { OBSERVE_CHECK } from '../observe-check.js';
import { isDocumentedDateField, pascalCase, typeOfValues } from '../contract/field-types.js';

/**
 * What a list of the target supports, learned before it is judged (Endpoints / List and search endpoints: "Field
 * names for filterBy and sortBy are endpoint specific; which fields each endpoint supports and which operators each
 * field supports: not shown"). The fields are those its items carry; a field is tried in `filterBy`/`sortBy` under
 * its JSON name, then in PascalCase as the reference writes `CreatedAt`. A FILTER_PARSING_FAILED or
 * SORTING_PARSING_FAILED answer, or a `sortBy` the target ignores, means "not supported there": information, never a
 * MUST failure, except on the date fields the reference names, which are filterable and sortable wherever exposed.
 */

/** A field of the target's list items, as the target was observed to support it. */
export interface ObservedField extends ListField {
  /** The name the target takes in `filterBy` and `sortBy` (the JSON name, or its PascalCase form). */
  readonly query: string;
  /** `CreatedAt` or `LastModifiedAt`: filterable and sortable are documented for it. */
  readonly documentedDate: boolean;
  /** Operators the target refused on this field, and why sorting it is not supported (when it is not). */
  readonly refused: readonly FilterOperator[];
  readonly sortNotSupported?: 'refused' | 'ignored';
}

/** Everything learned of one list. */
export interface ListProfile {
  /** Scalar fields of the items, typed by their values. */
  readonly fields: readonly ObservedField[];
  /** Fields `filterBy` takes, with the operators it takes on each. */
  readonly filterable: readonly ObservedField[];
  readonly sortable: readonly ObservedField[];
}

const FILTER_REFUSED = 'COMMON.QUERY.FILTER_PARSING_FAILED';
const SORT_REFUSED = 'COMMON.QUERY.SORTING_PARSING_FAILED';

/** A 4xx carrying one of the codes that say "this field or operator is not supported here". */
function refusedWith(ex: Exchange, codes: readonly string[]): boolean {
  const code = problemOf(ex)?.code;
  return ex.status >= 400 && ex.status < 500 && typeof code === 'string' && codes.includes(code);
}

/** The filter text for a probe of one operator on one field under one name, or undefined when the data has no value. */
function probeText(items: ListData['items'], field: ListField, query: string, operator: FilterOperator) {
  const fc = buildCase(items, { ...field, query }, operator);
  if (typeof fc !== 'string') return fc.text;
  // IsNotNull takes no value: its support can be asked even when every value is null. (IsNull is asked only when some
  // item has a null: without one, no check could exercise it, so the probe would be spent for nothing.)
  return operator === 'IsNotNull' ? `${query}[${operator}]` : undefined;
}

/**
 * The order operators are probed in: the ones a target most likely takes first (a valueless IsNotNull, Equals, and for
 * dates the documented comparisons), so the field's name is settled on the first probe and each refused operator
 * after it costs one request.
 */
function probeOrder(type: ListField['type']): FilterOperator[] {
  const first: FilterOperator[] = type === 'date' ? ['IsAfter', 'IsNotNull', 'Equals'] : ['IsNotNull', 'Equals'];
  return [
    ...first.filter((op) => OPERATORS_BY_TYPE[type].includes(op)),
    ...OPERATORS_BY_TYPE[type].filter((op) => !first.includes(op)),
  ];
}

/** The names a field is tried under: its JSON name, then its PascalCase form. */
const namesOf = (name: string): string[] => [...new Set([name, pascalCase(name)])];

/** Which operators the target takes on a field, and under which name. */
async function filterSupport(
  c: CheckContext,
  data: ListData,
  field: ListField,
): Promise<{ query?: string; operators: FilterOperator[]; refused: FilterOperator[] }> {
  const send = (text: string) =>
    c.run.read(OBSERVE_CHECK, listSpec(data.op, data.path, { filterBy: text, pageSize: 1000 }));
  const operators: FilterOperator[] = [];
  const refused: FilterOperator[] = [];
  let query: string | undefined;
  for (const operator of probeOrder(field.type)) {
    // Until one name is taken, each name is tried; after, the name the target took.
    let accepted = false;
    let probed = false;
    for (const name of query ? [query] : namesOf(field.name)) {
      const text = probeText(data.items, field, name, operator);
      if (!text) continue;
      probed = true;
      if (refusedWith(await send(text), [FILTER_REFUSED])) continue;
      query = name;
      accepted = true;
      break;
    }
    if (accepted) operators.push(operator);
    else if (probed) refused.push(operator);
  }
  return { ...(query ? { query } : {}), operators, refused };
}

/** Identities of a page in order. */
const order = (ex: Exchange) => pageOf(ex)?.results.map(identity) ?? [];
const sameOrder = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether the target sorts by a field, and under which name. */
async function sortSupport(
  c: CheckContext,
  data: ListData,
  field: ListField,
  names: string[],
): Promise<{ query: string; notSupported?: 'refused' | 'ignored' }> {
  const send = (sortBy: string) => c.run.read(OBSERVE_CHECK, listSpec(data.op, data.path, { sortBy, pageSize: 1000 }));
  const unsorted = data.items.slice(0, 1000).map(identity);
  let last: 'refused' | 'ignored' = 'refused';
  for (const name of names) {
    const ascending = await send(name);
    if (refusedWith(ascending, [SORT_REFUSED, FILTER_REFUSED])) {
      last = 'refused';
      continue;
    }
    const page = pageOf(ascending);
    // Any other answer is judged by the sort checks themselves.
    if (!page || distinctCount(page.results.map((i) => i[field.name])) < 2) return { query: name };
    const inOrder = ordered(
      page.results.map((i) => i[field.name]),
      typedCompare(field),
      false,
    );
    // An order of its own (sorted or not): the sort checks judge it.
    if (!sameOrder(order(ascending), unsorted)) return { query: name };
    // The answer is the unsorted order: a sort the target ignores, unless that order already is this field's.
    if (!inOrder) {
      last = 'ignored';
      continue;
    }
    const descending = await send(`-${name}`);
    if (sameOrder(order(descending), unsorted)) {
      last = 'ignored';
      continue;
    }
    return { query: name };
  }
  return { query: names[0] as string, notSupported: last };
}

/**
 * The operators the reference gives dates ("IsAfter, IsOnOrAfter, IsBefore, IsOnOrBefore | date comparisons"): on a
 * documented date field of a list that filters, these are MUST whatever the target answered to their probes.
 */
const DATE_COMPARISONS: readonly FilterOperator[] = ['IsAfter', 'IsOnOrAfter', 'IsBefore', 'IsOnOrBefore'];

/** What was learned of one field before the list as a whole is known (whether it filters or sorts at all). */
interface FieldProbe {
  base: ListField;
  filters: Awaited<ReturnType<typeof filterSupport>>;
  sort: Awaited<ReturnType<typeof sortSupport>>;
}

/** Learns one field: its type from its values, then what `filterBy` and `sortBy` take on it. */
async function probeField(c: CheckContext, data: ListData, name: string): Promise<FieldProbe | undefined> {
  const values = data.items.map((i) => i[name]);
  const type = typeOfValues(values);
  if (!type) return undefined;
  const base: ListField = {
    name,
    type,
    filterable: false,
    sortable: false,
    nullable: values.some((v) => v === null || v === undefined),
    operators: [],
  };
  const filters = await filterSupport(c, data, base);
  const sort = await sortSupport(c, data, base, filters.query ? [filters.query] : namesOf(name));
  return { base, filters, sort };
}

/**
 * A field as judged. "Date fields such as CreatedAt and LastModifiedAt are filterable and sortable where an endpoint
 * exposes them": on a list that filters (sorts) at all, a documented date field filters with the date comparisons
 * (sorts) whatever its probes said, so the checks judge it there; on a list that takes no filterBy (sortBy), it is
 * not held to it ("accept ... on some endpoints filterBy and sortBy").
 */
function judged(probe: FieldProbe, listFilters: boolean, listSorts: boolean): ObservedField {
  const { base, filters, sort } = probe;
  const documentedDate = base.type === 'date' && isDocumentedDateField(base.name);
  const forceFilter = documentedDate && listFilters;
  const forceSort = documentedDate && listSorts;
  const operators = forceFilter ? [...new Set([...filters.operators, ...DATE_COMPARISONS])] : filters.operators;
  const query = filters.query ?? (documentedDate && sort.notSupported ? pascalCase(base.name) : sort.query);
  return {
    ...base,
    query,
    documentedDate,
    filterable: operators.length > 0,
    operators,
    refused: filters.refused.filter((op) => !operators.includes(op)),
    sortable: forceSort || sort.notSupported === undefined,
    ...(sort.notSupported && !forceSort ? { sortNotSupported: sort.notSupported } : {}),
  };
}

/** Item members with a scalar value in at least one item, in the order the items carry them. */
function memberNames(items: ListData['items']): string[] {
  const names = new Set<string>();
  for (const item of items.slice(0, 200)) for (const key of Object.keys(item)) names.add(key);
  return [...names];
}

/**
 * The profile of a list (memoised per run): its fields and what the target takes on each. Probes are shared reads,
 * so a check that later sends the same filter or sort gets the same answer without a request.
 */
export function listProfile(c: CheckContext, data: ListData): Promise<ListProfile> {
  return c.run.memo(`list-profile:${data.op.operationId}:${data.path}`, async () => {
    const probes = (await Promise.all(memberNames(data.items).map((name) => probeField(c, data, name)))).filter(
      (p): p is FieldProbe => p !== undefined,
    );
    const listFilters = probes.some((p) => p.filters.operators.length > 0);
    const listSorts = probes.some((p) => p.sort.notSupported === undefined);
    const fields = probes.map((p) => judged(p, listFilters, listSorts));
    return {
      fields,
      filterable: fields.filter((f) => f.filterable),
      sortable: fields.filter((f) => f.sortable),
    };
  });
}
