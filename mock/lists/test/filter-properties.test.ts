import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listField, type ListField, type ListFieldTable } from '../../../spec/lists/fields.js';
import type { FilterOperator } from '../../../spec/lists/operators.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import { compileFilter } from '../filter/compile.js';
import { parseFilter } from '../filter/parser.js';

// ---------------------------------------------------------------------------------------------------------------
// Field table and random items
// ---------------------------------------------------------------------------------------------------------------

const STATUSES = ['Open', 'Closed', 'On Hold'];
const PRIORITIES = ['low', 'High'];

const FIELDS: ListFieldTable = [
  listField('id', 'string'),
  listField('name', 'string'),
  listField('note', 'string', { nullable: true }),
  listField('score', 'number'),
  listField('count', 'number', { nullable: true }),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date', { nullable: true }),
  listField('active', 'boolean'),
  listField('flag', 'boolean', { nullable: true }),
  listField('status', 'enum', { enumValues: STATUSES }),
  listField('priority', 'enum', { nullable: true, enumValues: PRIORITIES }),
];
const FILTERABLE = FIELDS.filter((f) => f.filterable);

type Item = Record<string, unknown> & { id: string };

const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 30);
const TIMES = [0, 1, 10.5 * 3_600_000, DAY - 1];

const textChar = fc.constantFrom('a', 'B', 'c', 'D', ' ', '&', '|', '(', ')', '"', '\\', '[', ']', 'é', 'Z', '1', '-', '.');
const text = fc.array(textChar, { maxLength: 7 }).map((chars) => chars.join(''));
const numberValue = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -200, max: 200 }).map((n) => n / 4));
const instant = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...TIMES)).map(([d, t]) => BASE + d * DAY + t);

/** Writes an instant as ISO text, either in UTC or with an offset (the same instant). */
function isoText(ms: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
const dateText = fc.tuple(instant, fc.constantFrom(0, 0, 330, -180)).map(([ms, off]) => isoText(ms, off));

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(undefined) });

const itemBody = fc.record({
  name: text,
  note: nullable(text),
  score: numberValue,
  count: nullable(numberValue),
  createdAt: dateText,
  lastModifiedAt: nullable(dateText),
  active: fc.boolean(),
  flag: nullable(fc.boolean()),
  status: fc.constantFrom(...STATUSES),
  priority: nullable(fc.constantFrom(...PRIORITIES)),
});

const itemsArb = fc.array(itemBody, { maxLength: 30 }).map((bodies) =>
  bodies.map((body, i): Item => {
    const item: Item = { id: `i${String(i).padStart(3, '0')}`, ...body };
    for (const key of Object.keys(item)) if (item[key] === undefined && i % 2 === 0) delete item[key]; // sometimes missing, sometimes undefined
    return item;
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// Generated filter expressions and a naive reference evaluator
// ---------------------------------------------------------------------------------------------------------------

type GenValue =
  | { type: 'text'; text: string }
  | { type: 'number'; num: number; text: string }
  | { type: 'bool'; bool: boolean; text: string }
  | { type: 'day'; day: string; text: string }
  | { type: 'instant'; ms: number; text: string };

interface GenCond {
  kind: 'cond';
  field: ListField;
  op: FilterOperator;
  value: GenValue | null;
}
type GenExpr = GenCond | { kind: 'and' | 'or'; children: GenExpr[] };

const isNullish = (v: unknown) => v === null || v === undefined;

function sign(x: number): number {
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

function compareOutcome(op: FilterOperator, cmp: number): boolean {
  switch (op) {
    case 'Equals':
      return cmp === 0;
    case 'Gt':
    case 'IsAfter':
      return cmp > 0;
    case 'Gte':
    case 'IsOnOrAfter':
      return cmp >= 0;
    case 'Lt':
    case 'IsBefore':
      return cmp < 0;
    case 'Lte':
    case 'IsOnOrBefore':
      return cmp <= 0;
    default:
      throw new Error(`not a comparison: ${op}`);
  }
}

function referenceCondition(c: GenCond, item: Item): boolean {
  const raw = item[c.field.name];
  if (c.op === 'IsNull') return isNullish(raw);
  if (c.op === 'IsNotNull') return !isNullish(raw);
  if (isNullish(raw)) return false;
  const v = c.value!;
  switch (c.field.type) {
    case 'string':
    case 'enum': {
      const s = raw as string;
      const t = (v as { text: string }).text;
      if (c.op === 'Contains') return s.toLowerCase().includes(t.toLowerCase());
      if (c.op === 'StartsWith') return s.toLowerCase().startsWith(t.toLowerCase());
      if (c.op === 'EndsWith') return s.toLowerCase().endsWith(t.toLowerCase());
      return s === t;
    }
    case 'number':
      return compareOutcome(c.op, sign((raw as number) - (v as { num: number }).num));
    case 'boolean':
      return raw === (v as { bool: boolean }).bool;
    case 'date': {
      const ms = Date.parse(raw as string);
      if (v.type === 'day') {
        const day = new Date(ms).toISOString().slice(0, 10);
        return compareOutcome(c.op, day < v.day ? -1 : day > v.day ? 1 : 0);
      }
      return compareOutcome(c.op, sign(ms - (v as { ms: number }).ms));
    }
  }
}

function reference(e: GenExpr, item: Item): boolean {
  if (e.kind === 'cond') return referenceCondition(e, item);
  return e.kind === 'and' ? e.children.every((c) => reference(c, item)) : e.children.some((c) => reference(c, item));
}

function pick<T>(values: readonly T[], index: number, fallback: T): T {
  return values.length === 0 ? fallback : values[index % values.length]!;
}

function recase(s: string, bits: number): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += (bits >> i % 30) & 1 ? s[i]!.toUpperCase() : s[i]!.toLowerCase();
  return out;
}

function conditionArb(items: readonly Item[]): fc.Arbitrary<GenCond> {
  return fc
    .record({
      field: fc.constantFrom(...FILTERABLE),
      opIndex: fc.nat(),
      pool: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 4 }),
      caseBits: fc.nat(),
      randomText: text,
      randomNumber: numberValue,
      randomInstant: instant,
      form: fc.constantFrom('day', 'instant', 'offset'),
      fromItems: fc.boolean(),
    })
    .map((r): GenCond => {
      const field = r.field;
      const op = field.operators[r.opIndex % field.operators.length]!;
      if (op === 'IsNull' || op === 'IsNotNull') return { kind: 'cond', field, op, value: null };
      const present = items.map((i) => i[field.name]).filter((v) => !isNullish(v));
      switch (field.type) {
        case 'string': {
          const source = r.fromItems ? pick(present as string[], r.pool, r.randomText) : r.randomText;
          let value = source;
          if (op !== 'Equals') {
            const from = source.length === 0 ? 0 : r.start % source.length;
            value = recase(source.slice(from, from + r.length), r.caseBits);
          }
          if (value === '') value = 'a';
          return { kind: 'cond', field, op, value: { type: 'text', text: value } };
        }
        case 'enum': {
          const values = field.enumValues!;
          return { kind: 'cond', field, op, value: { type: 'text', text: values[r.pool % values.length]! } };
        }
        case 'number': {
          const num = r.fromItems ? pick(present as number[], r.pool, r.randomNumber) : r.randomNumber;
          const text = r.caseBits % 2 === 0 ? String(num) : num.toFixed(2);
          return { kind: 'cond', field, op, value: { type: 'number', num, text } };
        }
        case 'boolean': {
          const bool = r.pool % 2 === 0;
          return { kind: 'cond', field, op, value: { type: 'bool', bool, text: recase(String(bool), r.caseBits) } };
        }
        case 'date': {
          const ms = r.fromItems ? pick(present.map((v) => Date.parse(v as string)), r.pool, r.randomInstant) : r.randomInstant;
          if (r.form === 'day') {
            const day = new Date(ms).toISOString().slice(0, 10);
            return { kind: 'cond', field, op, value: { type: 'day', day, text: day } };
          }
          const text = isoText(ms, r.form === 'offset' ? 330 : 0);
          return { kind: 'cond', field, op, value: { type: 'instant', ms, text } };
        }
      }
    });
}

function exprArb(items: readonly Item[], depth: number): fc.Arbitrary<GenExpr> {
  const cond = conditionArb(items);
  if (depth === 0) return cond;
  const child = exprArb(items, depth - 1);
  return fc.oneof(
    { weight: 2, arbitrary: cond },
    { weight: 1, arbitrary: fc.array(child, { minLength: 2, maxLength: 3 }).map((children): GenExpr => ({ kind: 'and', children })) },
    { weight: 1, arbitrary: fc.array(child, { minLength: 2, maxLength: 3 }).map((children): GenExpr => ({ kind: 'or', children })) },
  );
}

/** A small deterministic random source for rendering choices. */
function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MUST_QUOTE = /[&|()"\\]|^\s|\s$/;

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Renders an expression as `filterBy` text with random whitespace, name casing, quoting and extra parentheses. */
function render(e: GenExpr, rnd: () => number, parent: 'and' | 'or' | 'top' = 'top'): string {
  const ws = () => [' ', '', '', '  ', '\t'][Math.floor(rnd() * 5)]!;
  const cased = (s: string) => {
    const r = rnd();
    return r < 0.4 ? s : r < 0.6 ? s.toUpperCase() : r < 0.8 ? s.toLowerCase() : recase(s, Math.floor(rnd() * 2 ** 30));
  };
  let out: string;
  if (e.kind === 'cond') {
    let value = '';
    if (e.value) {
      const t = e.value.text;
      value = ws() + (MUST_QUOTE.test(t) || rnd() < 0.3 ? quote(t) : t);
    }
    out = `${ws()}${cased(e.field.name)}${ws()}[${ws()}${cased(e.op)}${ws()}]${value}${ws()}`;
  } else {
    out = e.children.map((c) => render(c, rnd, e.kind)).join(e.kind === 'and' ? '&&' : '||');
  }
  const needsParens = e.kind === 'or' && parent === 'and';
  return needsParens || rnd() < 0.15 ? `${ws()}(${out})${ws()}` : out;
}

function selected(source: ListCollection<Item> | Item[], filterBy: string, sortBy?: string): string[] {
  const result = runList(source, FIELDS, { filterBy, sortBy, pageSize: 1000 });
  if (!result.ok) throw new Error(`${result.error.detail} in ${JSON.stringify(filterBy)}`);
  expect(result.value.totalCount).toBe(result.value.results.length);
  return result.value.results.map((i) => i.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------------

describe('filter properties', () => {
  const grammarPiece = fc.constantFrom(
    'name', 'NAME', 'count', 'createdAt', 'status', 'active', 'nope', 'a.b', '[', ']', '(', ')', '&', '&&', '|', '||', '"', '\\', ' ', '\t',
    'Equals', 'contains', 'IsNull', 'isnotnull', 'Gt', 'Lte', 'IsAfter', 'Foo', '1', '-1.5', '1e3', '2024-01-31', '2024-01-31T10:00:00Z', 'true', 'Open', 'x', 'é', ',', '-',
  );
  const noisyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.array(grammarPiece, { maxLength: 25 }).map((p) => p.join('')),
  );

  it('never throws on arbitrary input and only ever fails with the documented error codes', () => {
    const items = [{ id: 'x', name: 'n', count: 1, createdAt: '2024-01-31T00:00:00Z', active: true, status: 'Open' }] as Item[];
    const collection = new ListCollection(items);
    fc.assert(
      fc.property(noisyText, noisyText, fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)), (filterBy, sortBy, pageSize) => {
        const parsed = parseFilter(filterBy);
        if (parsed.ok) {
          if (parsed.value !== null) {
            const compiled = compileFilter(parsed.value, FIELDS);
            if (compiled.ok) compiled.value(items[0]!);
            else expect(compiled.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
          }
        } else {
          expect(parsed.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
        }
        for (const source of [collection, items]) {
          const filtered = runList(source, FIELDS, { filterBy });
          if (!filtered.ok) expect(filtered.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
          const sorted = runList(source, FIELDS, { sortBy });
          if (!sorted.ok) expect(sorted.error.code).toBe('COMMON.QUERY.SORTING_PARSING_FAILED');
          const paged = runList(source, FIELDS, { pageSize });
          if (!paged.ok) expect(paged.error.code).toBe('COMMON.VALIDATION.ERROR');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('selects exactly the items a naive evaluation of the generated expression selects', () => {
    const scenario = itemsArb.chain((items) => fc.record({ items: fc.constant(items), expr: exprArb(items, 3), seed: fc.integer() }));
    let matchedSomething = 0;
    fc.assert(
      fc.property(scenario, ({ items, expr, seed }) => {
        const filterBy = render(expr, random(seed));
        const parsed = parseFilter(filterBy);
        if (!parsed.ok) throw new Error(`${parsed.error.detail} in ${JSON.stringify(filterBy)}`);
        const expected = items.filter((item) => reference(expr, item)).map((i) => i.id);
        if (expected.length > 0) matchedSomething++;
        expect(selected(items, filterBy)).toEqual(expected);
        expect(selected(new ListCollection(items), filterBy)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
    // values are drawn from the items, so a good share of expressions must select something
    expect(matchedSomething).toBeGreaterThan(100);
  });

  it('sorts exactly like a naive multi-key comparator with an ascending id tiebreak', () => {
    const sortable = FIELDS.filter((f) => f.sortable && f.name !== 'id');
    const keyValue = (field: ListField, item: Item): string | number | boolean | null => {
      const raw = item[field.name];
      if (isNullish(raw)) return null;
      return field.type === 'date' ? Date.parse(raw as string) : (raw as string | number | boolean);
    };
    const specArb = fc
      .shuffledSubarray(sortable, { minLength: 1, maxLength: 3 })
      .chain((fields) => fc.tuple(fc.constant(fields), fc.array(fc.boolean(), { minLength: fields.length, maxLength: fields.length }), fc.integer()));
    fc.assert(
      fc.property(itemsArb, specArb, (items, [fields, descending, seed]) => {
        const rnd = random(seed);
        const sortBy = fields.map((f, i) => `${descending[i] ? '-' : ''}${rnd() < 0.5 ? f.name : f.name.toUpperCase()}`).join(',');
        const expected = [...items]
          .sort((x, y) => {
            for (let k = 0; k < fields.length; k++) {
              const a = keyValue(fields[k]!, x);
              const b = keyValue(fields[k]!, y);
              let c = 0;
              if (a === null && b !== null) c = -1;
              else if (a !== null && b === null) c = 1;
              else if (a !== null && b !== null) c = a < b ? -1 : a > b ? 1 : 0;
              if (c !== 0) return descending[k] ? -c : c;
            }
            return x.id < y.id ? -1 : 1;
          })
          .map((i) => i.id);
        expect(selected(items, '', sortBy)).toEqual(expected);
        expect(selected(new ListCollection(items), '', sortBy)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a cached collection consistent with a fresh evaluation across random inserts, replacements and deletes', () => {
    const queries: Array<[string, string]> = [
      ['', ''],
      ['', '-name'],
      ['name[Contains]a', 'score'],
      ['count[IsNull]||flag[Equals]true', '-createdAt,name'],
      ['active[Equals]true&&score[Gt]0', 'status,-count'],
      ['createdAt[IsOnOrAfter]2024-01-31||note[IsNotNull]', '-lastModifiedAt,-priority'],
    ];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), slot: fc.integer({ min: 0, max: 40 }), body: itemBody }),
      fc.record({ kind: fc.constant('delete' as const), slot: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(itemsArb, fc.array(op, { maxLength: 25 }), fc.integer({ min: 1, max: 7 }), (initial, ops, pageSize) => {
        const collection = new ListCollection(initial);
        const current = new Map(initial.map((i) => [i.id, i]));
        const check = () => {
          const plain = [...current.values()];
          for (const [filterBy, sortBy] of queries) {
            for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
              const query = { filterBy, sortBy, pageSize, pageNumber };
              expect(runList(collection, FIELDS, query)).toEqual(runList(plain, FIELDS, query));
            }
          }
        };
        check();
        for (const o of ops) {
          const id = `i${String(o.slot).padStart(3, '0')}`;
          if (o.kind === 'set') {
            const item = { id, ...o.body } as Item;
            collection.set(item);
            current.set(id, item);
          } else {
            expect(collection.delete(id)).toBe(current.delete(id));
          }
          expect(collection.size).toBe(current.size);
          check();
        }
      }),
      { numRuns: 150 },
    );
  });
});
