import { identity, isSuccess, pageOf, type ListData } from '../helpers.js';
import type { ObservedField } from '../observe/list-profile.js';
import type { FilterOperator } from '../../spec/lists/operators.js';
import { filteredLists, ids, list, plainValue, profiled, swapCase, type Probe, type ProbeContext } from './probe.js';

/**
 * How `filterBy` reads what the reference leaves open (Endpoints / List and search endpoints / Filter operators: one
 * line per operator; case, precedence and date-only values are not stated). Each probe uses the fields and names the
 * target was observed to take (`observe/list-profile.ts`), so it works on a deployment whose fields are its own.
 */

/** A field of some list that takes `operator`, with the list read whole. */
async function* fieldsTaking(
  p: ProbeContext,
  operator: FilterOperator,
  type?: ObservedField['type'],
): AsyncGenerator<{ data: ListData; field: ObservedField }> {
  for (const op of filteredLists()) {
    const read = await profiled(p, op);
    if (typeof read === 'string' || !read.data.complete) continue;
    for (const field of read.profile.filterable)
      if (field.operators.includes(operator) && (type === undefined || field.type === type))
        yield { data: read.data, field };
  }
}

/** The identities a filter selects (up to 1000), or undefined when it was not answered with a page. */
async function selected(p: ProbeContext, data: ListData, filterBy: string) {
  const ex = await list(p, data.op, { filterBy, pageSize: 1000 }, data.path);
  return isSuccess(ex) && pageOf(ex) ? { ids: new Set(ids(ex)), ex } : { ex };
}

/** A run of 3 to 6 letters and digits with at least one letter, from a text. */
function letters(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.match(/[A-Za-z0-9]{3,6}/g)?.find((s) => /[A-Za-z]/.test(s) && swapCase(s) !== s);
}

/** A whole text value as Equals takes it: as it is when it is plain, else quoted. */
function whole(value: unknown): { exact: string; swapped: string } | undefined {
  if (typeof value !== 'string' || value.length > 200 || /["\\]/.test(value) || swapCase(value) === value)
    return undefined;
  return plainValue(value)
    ? { exact: value, swapped: swapCase(value) }
    : { exact: `"${value}"`, swapped: `"${swapCase(value)}"` };
}

/**
 * The case rule of `operator`: an item's text looked for with its letters in the other case; found, `insensitive`;
 * not found but found as written, `sensitive`.
 */
function caseProbe(
  point: string,
  operator: 'Contains' | 'Equals',
  sample: (v: unknown) => { exact: string; swapped: string } | undefined,
): Probe {
  return {
    name: point,
    kind: 'read',
    points: () => [point],
    async run(p) {
      for await (const { data, field } of fieldsTaking(p, operator, 'string')) {
        const item = data.items.find((i) => sample(i[field.name]) !== undefined);
        if (!item) continue;
        const { exact, swapped } = sample(item[field.name]) as { exact: string; swapped: string };
        const other = await selected(p, data, `${field.query}[${operator}]${swapped}`);
        if (!other.ids) continue;
        if (other.ids.has(identity(item))) return p.seen.record(point, 'insensitive', other.ex);
        const same = await selected(p, data, `${field.query}[${operator}]${exact}`);
        if (same.ids?.has(identity(item))) return p.seen.record(point, 'sensitive', other.ex);
      }
      p.seen.cannot(point, `no list item has a text value with letters to look for in the other case with ${operator}`);
    },
  };
}

const textCase = caseProbe('text-case', 'Contains', (v) => {
  const s = letters(v);
  return s === undefined ? undefined : { exact: s, swapped: swapCase(s) };
});

const equalsCase = caseProbe('equals-case', 'Equals', whole);

/** Field names with the first letter in the other case (and the operator in lower case), as the runner's check sends. */
const fieldNameCase: Probe = {
  name: 'field name case',
  kind: 'read',
  points: () => ['field-name-case'],
  async run(p) {
    for await (const { data, field } of fieldsTaking(p, 'IsNotNull')) {
      if (!/^[a-z]/i.test(field.query)) continue;
      const flip = `${/^[a-z]/.test(field.query) ? field.query[0]?.toUpperCase() : field.query[0]?.toLowerCase()}${field.query.slice(1)}`;
      const asTaken = await selected(p, data, `${field.query}[IsNotNull]`);
      if (!asTaken.ids) continue;
      const flipped = await selected(p, data, `${flip}[isnotnull]`);
      if (!flipped.ids) return p.seen.record('field-name-case', 'sensitive', flipped.ex);
      const same = asTaken.ids.size === flipped.ids.size && [...asTaken.ids].every((x) => flipped.ids?.has(x));
      return p.seen.record('field-name-case', same ? 'insensitive' : 'sensitive', flipped.ex);
    }
    p.seen.cannot('field-name-case', 'no field takes IsNotNull');
  },
};

/** `Field[Equals]<day>` on a date-time: the whole UTC day, or the instant of its midnight only. */
const dateOnly: Probe = {
  name: 'date-only values',
  kind: 'read',
  points: () => ['date-only-equals'],
  async run(p) {
    for await (const { data, field } of fieldsTaking(p, 'Equals', 'date')) {
      const item = data.items.find((i) => {
        const v = i[field.name];
        return typeof v === 'string' && v.length > 10 && !Number.isNaN(Date.parse(v)) && !/T00:00(:00(\.0+)?)?/.test(v);
      });
      if (!item) continue;
      const day = new Date(Date.parse(item[field.name] as string)).toISOString().slice(0, 10);
      const got = await selected(p, data, `${field.query}[Equals]${day}`);
      if (!got.ids) continue;
      return p.seen.record('date-only-equals', got.ids.has(identity(item)) ? 'whole-day' : 'instant', got.ex);
    }
    p.seen.cannot('date-only-equals', 'no date field with a time of day takes Equals');
  },
};

/**
 * `A||B&&C` with B = C on one field: `&&` first gives the items of A and of B; left to right gives those of B only.
 */
const precedence: Probe = {
  name: 'precedence',
  kind: 'read',
  points: () => ['filter-precedence'],
  async run(p) {
    for await (const { data, field } of fieldsTaking(p, 'Equals', 'string')) {
      const a = data.items.find((i) => plainValue(i[field.name]));
      const b = data.items.find((i) => plainValue(i[field.name]) && i[field.name] !== a?.[field.name]);
      if (!a || !b) continue;
      const [x, y] = [`${field.query}[Equals]${a[field.name]}`, `${field.query}[Equals]${b[field.name]}`];
      const got = await selected(p, data, `${x}||${y}&&${y}`);
      if (!got.ids?.has(identity(b))) continue;
      return p.seen.record('filter-precedence', got.ids.has(identity(a)) ? 'and-first' : 'left-to-right', got.ex);
    }
    p.seen.cannot('filter-precedence', 'no text field with two plain values takes Equals');
  },
};

export const FILTER_PROBES: readonly Probe[] = [textCase, equalsCase, fieldNameCase, dateOnly, precedence];
