import type { ListField } from '../../spec/lists/fields.js';
import { FILTER_OPERATORS, type FilterOperator } from '../../spec/lists/operators.js';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { byProvenance, filterableFields, label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, listSpec, pageOf, problemOf, readList, type ListData } from '../helpers.js';
import type { Level } from '../types.js';

const CLAUSE = 'Endpoints / List and search endpoints / Filter operators';
const CODE = 'COMMON.QUERY.FILTER_PARSING_FAILED';

type Item = Record<string, unknown>;

/** One filter condition built from data the run read, with what it must select. */
interface FilterCase {
  field: ListField;
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

function kebab(op: FilterOperator): string {
  return op.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

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

/** Builds a condition for a field and operator from the items read, or says why the data cannot exercise it. */
export function buildCase(items: Item[], field: ListField, operator: FilterOperator): FilterCase | string {
  const name = field.name;
  const get = (item: Item) => item[name];
  const base = { field, operator };
  if (operator === 'IsNull') {
    if (!items.some((i) => isNull(get(i)))) return `no item has a null ${name}`;
    return { ...base, text: `${name}[IsNull]`, strict: (i) => isNull(get(i)), lenient: (i) => isNull(get(i)) };
  }
  if (operator === 'IsNotNull') {
    if (!items.some((i) => !isNull(get(i)))) return `every ${name} is null`;
    return { ...base, text: `${name}[IsNotNull]`, strict: (i) => !isNull(get(i)), lenient: (i) => !isNull(get(i)) };
  }
  if (field.type === 'string' || field.type === 'enum') {
    const values = items.map(get).filter((v): v is string => typeof v === 'string' && safe(v));
    const ordered = [...values.slice(Math.floor(values.length / 2)), ...values.slice(0, Math.floor(values.length / 2))];
    const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
    if (operator === 'Equals') {
      const v = ordered[0];
      if (v === undefined) return `no ${name} value usable without quoting`;
      if (field.type === 'enum')
        return { ...base, text: `${name}[Equals]${v}`, strict: (i) => get(i) === v, lenient: (i) => get(i) === v };
      return {
        ...base,
        text: `${name}[Equals]${v}`,
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
          text: `${name}[Contains]${part}`,
          strict: (i) => typeof get(i) === 'string' && (get(i) as string).includes(part),
          lenient: (i) => lower(get(i))?.includes(p) === true,
        };
      if (operator === 'StartsWith')
        return {
          ...base,
          text: `${name}[StartsWith]${part}`,
          strict: (i) => typeof get(i) === 'string' && (get(i) as string).startsWith(part),
          lenient: (i) => lower(get(i))?.startsWith(p) === true,
        };
      if (operator === 'EndsWith')
        return {
          ...base,
          text: `${name}[EndsWith]${part}`,
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
    return { ...base, text: `${name}[Equals]${String(v)}`, strict: (i) => get(i) === v, lenient: (i) => get(i) === v };
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
    return { ...base, text: `${name}[${operator}]${String(v)}`, strict: test, lenient: test };
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
  return { ...base, text: `${name}[${operator}]${byInstant.get(t) as string}`, strict: test, lenient: test };
}

/** Sends a filtered list request for the whole result (up to 1000 items). */
function filtered(c: CheckContext, data: ListData, filterBy: string): Promise<Exchange> {
  return c.send(listSpec(data.op, data.path, { filterBy, pageSize: 1000 }));
}

/** Runs one case: the results satisfy it (lenient reading) and, when the list was read whole, include every item it must select. */
async function verifyCase(c: CheckContext, data: ListData, fc: FilterCase): Promise<void> {
  const ex = await filtered(c, data, fc.text);
  const page = pageOf(ex);
  const where = `${label(data.op)} filterBy=${fc.text}`;
  if (!c.expect(ex.status === 200 && page !== undefined, where, ex, '200 with a page', String(ex.status)) || !page)
    return;
  const expected = data.items.filter(fc.strict);
  if (expected.length === 0) return c.cannot(`${where}: no item to select`);
  c.exercised(where);
  // The value was taken from an item that satisfies the condition: an empty answer is never right.
  if (
    !c.expect(
      page.results.length > 0,
      `${where}: no item returned`,
      ex,
      `at least ${Math.min(expected.length, 1000)} item(s), such as ${identity(expected[0] as Item)}`,
      '0 items',
    )
  )
    return;
  const wrong = page.results.filter((i) => !fc.lenient(i));
  c.expect(
    wrong.length === 0,
    `${where}: items that do not satisfy the condition were returned`,
    ex,
    `every item satisfies ${fc.text}`,
    wrong
      .slice(0, 3)
      .map((i) => `${identity(i)}: ${JSON.stringify(i[fc.field.name])}`)
      .join('; '),
  );
  if (data.complete && page.totalCount <= 1000) {
    const got = new Set(page.results.map(identity));
    const missing = expected.filter((i) => !got.has(identity(i)));
    c.expect(
      missing.length === 0,
      `${where}: items that satisfy the condition are missing`,
      ex,
      `${expected.length} items including ${missing.slice(0, 3).map(identity).join(', ')}`,
      `${page.results.length} items`,
    );
  }
}

/** Every operation with filters, split by provenance into a MUST check and a SHOULD twin. */
function twins(
  base: string,
  title: string,
  clause: string,
  fn: (c: CheckContext, data: ListData, level: Level) => Promise<void>,
): CheckDef[] {
  const ops = listOperations().filter((op) => filterableFields(op).length > 0);
  const { documented, inferred } = byProvenance(ops);
  const make = (id: string, level: Level, scope: OperationDef[], suffix: string): CheckDef => ({
    id,
    title: `${title}${suffix}`,
    family: 'filters',
    clause,
    level,
    run: (c) =>
      Promise.all(
        scope.map(async (op) => {
          const data = await readList(c, op);
          if (typeof data === 'string') return c.cannot(data);
          await fn(c, data, level);
        }),
      ).then(() => undefined),
  });
  return [
    ...(documented.length ? [make(base, 'MUST', documented, '')] : []),
    ...(inferred.length ? [make(`${base}.inferred`, 'SHOULD', inferred, ' (operations the contract infers)')] : []),
  ];
}

function operatorChecks(): CheckDef[] {
  return FILTER_OPERATORS.flatMap((operator) =>
    twins(
      `filters.${kebab(operator)}`,
      `${operator} selects exactly the items it names, on every field that offers it`,
      `${CLAUSE} (${operator})`,
      async (c, data) => {
        const fields = filterableFields(data.op).filter((f) => f.operators.includes(operator));
        if (fields.length === 0) return c.cannot(`${label(data.op)} offers ${operator} on no field`);
        await Promise.all(
          fields.map(async (field) => {
            const fc = buildCase(data.items, field, operator);
            if (typeof fc === 'string') return c.cannot(`${label(data.op)}: ${fc}`);
            await verifyCase(c, data, fc);
          }),
        );
      },
    ),
  );
}

/** The server's answer to a filter as a set of identities, or undefined when it is not a whole 200 page. */
async function resultSet(
  c: CheckContext,
  data: ListData,
  filterBy: string,
): Promise<{ ids: Set<string>; ex: Exchange } | undefined> {
  const ex = await filtered(c, data, filterBy);
  const page = pageOf(ex);
  if (ex.status !== 200 || !page) {
    c.fail(`${label(data.op)} filterBy=${filterBy}`, ex, '200 with a page', String(ex.status));
    return undefined;
  }
  if (page.totalCount > 1000) {
    c.cannot(`${label(data.op)} filterBy=${filterBy}: more than 1000 results`);
    return undefined;
  }
  return { ids: new Set(page.results.map(identity)), ex };
}

const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b]);
const intersection = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));
const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Conditions on distinct fields whose server answers are non-empty proper subsets of the list. */
async function combinationCases(c: CheckContext, data: ListData): Promise<{ text: string; ids: Set<string> }[]> {
  const picked: { text: string; ids: Set<string> }[] = [];
  for (const field of filterableFields(data.op)) {
    if (picked.length >= 4) break;
    for (const operator of ['Equals', 'Contains', 'Gt', 'IsAfter', 'StartsWith'] as FilterOperator[]) {
      if (!field.operators.includes(operator)) continue;
      const fc = buildCase(data.items, field, operator);
      if (typeof fc === 'string') continue;
      const set = await resultSet(c, data, fc.text);
      if (set && set.ids.size > 0 && set.ids.size < data.totalCount) {
        picked.push({ text: fc.text, ids: set.ids });
        break;
      }
    }
  }
  return picked;
}

function combinationChecks(): CheckDef[] {
  return [
    ...twins('filters.and-or', '`&&` intersects and `||` unites the conditions', CLAUSE, async (c, data) => {
      const cases = await combinationCases(c, data);
      const [a, b] = cases;
      if (!a || !b) return c.cannot(`${label(data.op)}: fewer than two selective conditions`);
      const and = await resultSet(c, data, `${a.text}&&${b.text}`);
      const or = await resultSet(c, data, `${a.text}||${b.text}`);
      if (and) {
        c.exercised(`${label(data.op)} A&&B`);
        c.expect(
          same(and.ids, intersection(a.ids, b.ids)),
          `${label(data.op)}: ${a.text}&&${b.text} is not the intersection`,
          and.ex,
          `${intersection(a.ids, b.ids).size} items (A ∩ B)`,
          `${and.ids.size} items`,
        );
      }
      if (or) {
        c.exercised(`${label(data.op)} A||B`);
        c.expect(
          same(or.ids, union(a.ids, b.ids)),
          `${label(data.op)}: ${a.text}||${b.text} is not the union`,
          or.ex,
          `${union(a.ids, b.ids).size} items (A ∪ B)`,
          `${or.ids.size} items`,
        );
      }
    }),
    ...twins('filters.parentheses', 'Parentheses group conditions', CLAUSE, async (c, data) => {
      const [a, b, cc] = await combinationCases(c, data);
      if (!a || !b || !cc) return c.cannot(`${label(data.op)}: fewer than three selective conditions`);
      const grouped = await resultSet(c, data, `(${a.text}||${b.text})&&${cc.text}`);
      if (grouped) {
        c.exercised(`${label(data.op)} (A||B)&&C`);
        const expected = intersection(union(a.ids, b.ids), cc.ids);
        c.expect(
          same(grouped.ids, expected),
          `${label(data.op)}: (A||B)&&C`,
          grouped.ex,
          `${expected.size} items ((A ∪ B) ∩ C)`,
          `${grouped.ids.size} items`,
        );
      }
      const right = await resultSet(c, data, `${a.text}&&(${b.text}||${cc.text})`);
      if (right) {
        c.exercised(`${label(data.op)} A&&(B||C)`);
        const expected = intersection(a.ids, union(b.ids, cc.ids));
        c.expect(
          same(right.ids, expected),
          `${label(data.op)}: A&&(B||C)`,
          right.ex,
          `${expected.size} items (A ∩ (B ∪ C))`,
          `${right.ids.size} items`,
        );
      }
    }),
    {
      id: 'filters.precedence',
      title: '`&&` binds tighter than `||`',
      family: 'filters',
      clause: `${CLAUSE} (precedence is not stated)`,
      level: 'SHOULD',
      run: async (c) => {
        await Promise.all(
          listOperations()
            .filter((op) => filterableFields(op).length > 0)
            .map(async (op) => {
              const data = await readList(c, op);
              if (typeof data === 'string') return c.cannot(data);
              const cases = await combinationCases(c, data);
              // A||B&&C differs from (A||B)&&C only on items of A outside C.
              for (const a of cases)
                for (const cc of cases) {
                  if (a === cc || [...a.ids].every((x) => cc.ids.has(x))) continue;
                  const b = cases.find((x) => x !== a && x !== cc);
                  if (!b) continue;
                  const got = await resultSet(c, data, `${a.text}||${b.text}&&${cc.text}`);
                  if (!got) return;
                  c.exercised(label(op));
                  const expected = union(a.ids, intersection(b.ids, cc.ids));
                  c.expect(
                    same(got.ids, expected),
                    `${label(op)}: A||B&&C is not A||(B&&C)`,
                    got.ex,
                    `${expected.size} items (A ∪ (B ∩ C))`,
                    `${got.ids.size} items`,
                  );
                  return;
                }
              c.cannot(`${label(op)}: no conditions whose precedence changes the result`);
            }),
        );
      },
    },
  ];
}

function errorChecks(): CheckDef[] {
  return [
    ...twins(
      'filters.unknown-column',
      'A filter naming an unknown column gives 400 COMMON.QUERY.FILTER_PARSING_FAILED',
      `${CLAUSE}; Errors / Status and code pairs (400)`,
      async (c, data) => {
        const ex = await filtered(c, data, 'conformNoSuchColumn[Equals]x');
        c.exercised(label(data.op));
        const code = problemOf(ex)?.code;
        c.expect(
          ex.status === 400 && code === CODE,
          `${label(data.op)} filterBy=conformNoSuchColumn[Equals]x`,
          ex,
          `400 ${CODE}`,
          `${ex.status} ${String(code)}`,
        );
      },
    ),
    ...twins(
      'filters.syntax-error',
      'A filter that cannot be parsed gives 400 COMMON.QUERY.FILTER_PARSING_FAILED',
      `${CLAUSE}; Errors / Status and code pairs (400)`,
      async (c, data) => {
        const field = filterableFields(data.op)[0];
        if (!field) return c.cannot(`${label(data.op)} has no filterable field`);
        for (const text of [
          `${field.name}[Equals`,
          `(${field.name}[IsNotNull]`,
          `${field.name}[IsNotNull]&&`,
          `${field.name}[NoSuchOperator]x`,
        ]) {
          const ex = await filtered(c, data, text);
          c.exercised(`${label(data.op)} ${text}`);
          const code = problemOf(ex)?.code;
          c.expect(
            ex.status === 400 && code === CODE,
            `${label(data.op)} filterBy=${text}`,
            ex,
            `400 ${CODE}`,
            `${ex.status} ${String(code)}`,
          );
        }
      },
    ),
  ];
}

/** Filter details the reference leaves open (SHOULD at most). */
function inferredChecks(): CheckDef[] {
  const ops = () => listOperations().filter((op) => filterableFields(op).length > 0);
  const each = async (c: CheckContext, fn: (data: ListData) => Promise<void>) => {
    await Promise.all(
      ops().map(async (op) => {
        const data = await readList(c, op);
        if (typeof data === 'string') return c.cannot(data);
        await fn(data);
      }),
    );
  };
  return [
    {
      id: 'filters.contains-case-insensitive',
      title: 'Contains, StartsWith and EndsWith ignore case',
      family: 'filters',
      clause: `${CLAUSE} (case sensitivity is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          for (const field of filterableFields(data.op).filter((f) => f.operators.includes('Contains'))) {
            const fc = buildCase(data.items, field, 'Contains');
            if (typeof fc === 'string') continue;
            const part = fc.text.slice(fc.text.indexOf(']') + 1);
            const swapped = [...part]
              .map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()))
              .join('');
            if (swapped === part) continue;
            const got = await resultSet(c, data, `${field.name}[Contains]${swapped}`);
            if (!got) continue;
            c.exercised(`${label(data.op)} ${field.name}`);
            const expected = data.items.filter(fc.lenient);
            const missing = expected.filter((i) => !got.ids.has(identity(i)));
            c.expect(
              missing.length === 0,
              `${label(data.op)} filterBy=${field.name}[Contains]${swapped}: case-insensitive matches missing`,
              got.ex,
              `${expected.length} items`,
              `${got.ids.size} items`,
            );
          }
        }),
    },
    {
      id: 'filters.field-name-case',
      title: 'Field names in filters ignore case',
      family: 'filters',
      clause: `${CLAUSE} (case of field names is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          const field = filterableFields(data.op).find(
            (f) => f.operators.includes('IsNotNull') && /^[a-z]/.test(f.name),
          );
          if (!field) return c.cannot(`${label(data.op)}: no lower-case field name`);
          const lower = await resultSet(c, data, `${field.name}[IsNotNull]`);
          const upper = await resultSet(c, data, `${field.name[0]?.toUpperCase()}${field.name.slice(1)}[isnotnull]`);
          if (!lower || !upper) return;
          c.exercised(label(data.op));
          c.expect(
            same(lower.ids, upper.ids),
            `${label(data.op)}: ${field.name} and its capitalised form select different items`,
            upper.ex,
            `${lower.ids.size} items`,
            `${upper.ids.size} items`,
          );
        }),
    },
    {
      id: 'filters.date-only-day',
      title: 'A date-only value compares whole UTC days',
      family: 'filters',
      clause: `${CLAUSE} (date values are not specified)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          const field = filterableFields(data.op).find((f) => f.type === 'date');
          if (!field) return c.cannot(`${label(data.op)} has no date field`);
          const value = data.items
            .map((i) => i[field.name])
            .find((v): v is string => typeof v === 'string' && v.length > 10);
          if (!value || !data.complete) return c.cannot(`${label(data.op)}: no ${field.name} value`);
          const day = new Date(Date.parse(value)).toISOString().slice(0, 10);
          const got = await resultSet(c, data, `${field.name}[Equals]${day}`);
          if (!got) return;
          c.exercised(label(data.op));
          const expected = new Set(
            data.items
              .filter(
                (i) =>
                  typeof i[field.name] === 'string' &&
                  new Date(Date.parse(i[field.name] as string)).toISOString().slice(0, 10) === day,
              )
              .map(identity),
          );
          c.expect(
            same(got.ids, expected),
            `${label(data.op)} filterBy=${field.name}[Equals]${day}`,
            got.ex,
            `${expected.size} items of that UTC day`,
            `${got.ids.size} items`,
          );
        }),
    },
  ];
}

export function filterChecks(): CheckDef[] {
  return [...operatorChecks(), ...combinationChecks(), ...errorChecks(), ...inferredChecks()];
}
