/** The model of the filter property tests: a field table, random items, generated expressions, a reference evaluator. */
import fc from 'fast-check';
import { listField, type ListField, type ListFieldTable } from '../../../spec/lists/fields.js';
import type { FilterOperator } from '../../../spec/lists/operators.js';

// ---------------------------------------------------------------------------------------------------------------
// Field table and random items
// ---------------------------------------------------------------------------------------------------------------

const STATUSES = ['Open', 'Closed', 'On Hold'];
const PRIORITIES = ['low', 'High'];

export const FIELDS: ListFieldTable = [
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

export type Item = Record<string, unknown> & { id: string };

const DAY = 86_400_000;
const BASE = Date.UTC(2024, 0, 30);
const TIMES = [0, 1, 10.5 * 3_600_000, DAY - 1];

const textChar = fc.constantFrom(
  'a',
  'B',
  'c',
  'D',
  ' ',
  '&',
  '|',
  '(',
  ')',
  '"',
  '\\',
  '[',
  ']',
  'é',
  'Z',
  '1',
  '-',
  '.',
);
const text = fc.array(textChar, { maxLength: 7 }).map((chars) => chars.join(''));
const numberValue = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.integer({ min: -200, max: 200 }).map((n) => n / 4),
);
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

const nullable = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 3, arbitrary: arb },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

export const itemBody = fc.record({
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

export const itemsArb = fc.array(itemBody, { maxLength: 30 }).map((bodies) =>
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

export const isNullish = (v: unknown) => v === null || v === undefined;

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

export function reference(e: GenExpr, item: Item): boolean {
  if (e.kind === 'cond') return referenceCondition(e, item);
  return e.kind === 'and' ? e.children.every((c) => reference(c, item)) : e.children.some((c) => reference(c, item));
}

function pick<T>(values: readonly T[], index: number, fallback: T): T {
  return values.length === 0 ? fallback : values[index % values.length]!;
}

function recase(s: string, bits: number): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += (bits >> (i % 30)) & 1 ? s[i]!.toUpperCase() : s[i]!.toLowerCase();
  return out;
}

export function conditionArb(items: readonly Item[]): fc.Arbitrary<GenCond> {
  return (
    fc
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
      // biome-ignore lint/suspicious/useIterableCallbackReturn: fast-check's Arbitrary.map; every branch returns (checked by tsc)
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
            const ms = r.fromItems
              ? pick(
                  present.map((v) => Date.parse(v as string)),
                  r.pool,
                  r.randomInstant,
                )
              : r.randomInstant;
            if (r.form === 'day') {
              const day = new Date(ms).toISOString().slice(0, 10);
              return { kind: 'cond', field, op, value: { type: 'day', day, text: day } };
            }
            const text = isoText(ms, r.form === 'offset' ? 330 : 0);
            return { kind: 'cond', field, op, value: { type: 'instant', ms, text } };
          }
        }
      })
  );
}

export function exprArb(items: readonly Item[], depth: number): fc.Arbitrary<GenExpr> {
  const cond = conditionArb(items);
  if (depth === 0) return cond;
  const child = exprArb(items, depth - 1);
  return fc.oneof(
    { weight: 2, arbitrary: cond },
    {
      weight: 1,
      arbitrary: fc
        .array(child, { minLength: 2, maxLength: 3 })
        .map((children): GenExpr => ({ kind: 'and', children })),
    },
    {
      weight: 1,
      arbitrary: fc.array(child, { minLength: 2, maxLength: 3 }).map((children): GenExpr => ({ kind: 'or', children })),
    },
  );
}

/** A small deterministic random source for rendering choices. */
export function random(seed: number): () => number {
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
export function render(e: GenExpr, rnd: () => number, parent: 'and' | 'or' | 'top' = 'top'): string {
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
