import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '../../../spec/lists/operators.js';
import { ListCollection } from '../collection.js';
import { compileFilterPlan } from '../filter/compile.js';
import { parseFilter } from '../filter/parser.js';
import { runList } from '../engine.js';
import { ASSETS, FIELDS, queryError, selectIds } from './fixtures.js';

/** How deep parentheses may nest in a filter (mock/lists/filter/parser.ts). */
const MAX_FILTER_DEPTH = 64;

const cond = (field: string, operator: string, value: string | null = null) =>
  expect.objectContaining({ kind: 'condition', field, operator, value });

describe('filter operators', () => {
  // [filterBy, ids expected over ASSETS (default order: id ascending)]
  const cases: Array<[string, string[]]> = [
    // Contains / StartsWith / EndsWith: case-insensitive
    ['name[Contains]PUMP', ['a']],
    ['description[Contains]pump', ['a', 'd']],
    ['name[Contains]a', ['a', 'b', 'c', 'd']],
    ['name[Contains]éPS', ['e']],
    ['name[StartsWith]DEL', ['d']],
    ['name[StartsWith]gamma &', ['c']],
    ['name[EndsWith]VALVE', ['b']],
    ['description[EndsWith]ING', ['d']],
    // Equals on strings: exact and case-sensitive
    ['name[Equals]delta', ['d']],
    ['name[Equals]Delta', []],
    ['name[Equals]Alpha Pump', ['a']],
    ['code[Equals]A1', ['a']],
    // Equals on numbers: numeric
    ['count[Equals]-1.5', ['b']],
    ['count[Equals]10.0', ['a']],
    ['count[Equals]0', ['c']],
    ['count[Equals]1e3', ['e']],
    // Gt / Gte / Lt / Lte on numbers; null never matches
    ['count[Gt]0', ['a', 'e']],
    ['count[Gte]0', ['a', 'c', 'e']],
    ['count[Lt]0', ['b']],
    ['count[Lte]10', ['a', 'b', 'c']],
    // dates: a date-only value compares whole UTC days, a date-time value compares instants
    ['createdAt[Equals]2024-01-31', ['a', 'b']],
    ['createdAt[Equals]2024-01-31T10:00:00Z', ['a']],
    ['createdAt[Equals]2024-01-31T12:00:00+02:00', ['a']],
    ['createdAt[Equals]2024-01-31T10:00Z', ['a']],
    ['createdAt[Gt]2024-01-31', ['c']],
    ['createdAt[Gt]2024-01-31T10:00:00Z', ['b', 'c']],
    ['createdAt[Gte]2024-01-31', ['a', 'b', 'c']],
    ['createdAt[Gte]2024-01-31T10:00:00.000Z', ['a', 'b', 'c']],
    ['createdAt[Lt]2024-01-31', ['d', 'e']],
    ['createdAt[Lt]2024-01-02', ['e']],
    ['createdAt[Lte]2024-01-31', ['a', 'b', 'd', 'e']],
    ['createdAt[IsAfter]2024-01-31', ['c']],
    ['createdAt[IsAfter]2024-01-31T23:59:59.998Z', ['b', 'c']],
    ['createdAt[IsOnOrAfter]2024-01-31', ['a', 'b', 'c']],
    ['createdAt[IsOnOrAfter]2024-02-01T00:00:00Z', ['c']],
    ['createdAt[IsBefore]2024-01-31', ['d', 'e']],
    ['createdAt[IsBefore]2024-01-31T23:59:59.999Z', ['a', 'd', 'e']],
    ['createdAt[IsOnOrBefore]2024-01-31', ['a', 'b', 'd', 'e']],
    ['createdAt[IsOnOrBefore]2024-01-31T23:59:59.999Z', ['a', 'b', 'd', 'e']],
    ['lastModifiedAt[IsBefore]2024-12-31', ['a', 'c', 'e']],
    ['lastModifiedAt[Equals]2024-01-15T06:30:00Z', ['c']],
    ['lastModifiedAt[Equals]2024-01-15', ['c']],
    // IsNull / IsNotNull: null and missing properties are null
    ['lastModifiedAt[IsNull]', ['b', 'd']],
    ['lastModifiedAt[IsNotNull]', ['a', 'c', 'e']],
    ['description[IsNull]', ['b', 'e']],
    ['count[IsNull]', ['d']],
    ['count[IsNotNull]', ['a', 'b', 'c', 'e']],
    ['status[IsNull]', ['e']],
    // booleans and enums
    ['active[Equals]true', ['a', 'c', 'e']],
    ['active[Equals]FALSE', ['b', 'd']],
    ['status[Equals]Open', ['a', 'd']],
  ];

  it.each(cases)('evaluates %s', (filterBy, expected) => {
    expect(selectIds({ filterBy })).toEqual(expected);
  });

  it('covers every one of the 14 operators in the table above', () => {
    const used = new Set(cases.map(([text]) => /\[(\w+)\]/.exec(text)?.[1]));
    expect([...FILTER_OPERATORS].filter((op) => !used.has(op))).toEqual([]);
  });

  it('gives the same answers through the compiled filter applied to the items directly', () => {
    for (const [filterBy, expected] of cases) {
      const parsed = parseFilter(filterBy);
      if (!parsed.ok || !parsed.value) throw new Error(filterBy);
      const compiled = compileFilterPlan(parsed.value, FIELDS);
      if (!compiled.ok) throw new Error(filterBy);
      const { test } = compiled.value;
      expect(ASSETS.filter((item) => test(item as unknown as Record<string, unknown>)).map((i) => i.id)).toEqual(
        expected,
      );
    }
  });

  it('gives the same answers through an indexed ListCollection', () => {
    const collection = new ListCollection(ASSETS);
    for (const [filterBy, expected] of cases) {
      const result = runList(collection, FIELDS, { filterBy, pageSize: 1000 });
      expect(result.ok && result.value.results.map((i) => i.id)).toEqual(expected);
    }
  });
});

describe('filter combinations', () => {
  const cases: Array<[string, string[]]> = [
    ['name[Contains]a&&count[Gt]0', ['a']],
    ['status[Equals]Closed||status[Equals]Pending', ['b', 'c']],
    // && binds tighter than ||
    ['status[Equals]Closed||active[Equals]true&&count[Gt]5', ['a', 'b', 'e']],
    ['status[Equals]Closed||(active[Equals]true&&count[Gt]5)', ['a', 'b', 'e']],
    ['(status[Equals]Closed||active[Equals]true)&&count[Gt]5', ['a', 'e']],
    ['active[Equals]true&&count[Gt]5||status[Equals]Closed', ['a', 'b', 'e']],
    ['active[Equals]true&&(count[Gt]5||status[Equals]Closed)', ['a', 'e']],
    ['((name[Equals]delta))', ['d']],
    ['(((count[IsNull]) || (status[IsNull])))', ['d', 'e']],
    ['count[Gte]0&&count[Lte]10&&active[Equals]true', ['a', 'c']],
    ['count[Lt]0||count[IsNull]||status[IsNull]', ['b', 'd', 'e']],
    // whitespace between tokens is ignored; unquoted values are trimmed
    ['  name [ Contains ] pump   &&  ( count [Gt] 0 )  ', ['a']],
    ['name[Contains]\tpump\t||\nname[Equals]delta', ['a', 'd']],
    // field and operator names ignore case
    ['NAME[CONTAINS]pump', ['a']],
    ['CreatedAt[isonorafter]2024-02-01', ['c']],
    ['LASTMODIFIEDAT[isnull]', ['b', 'd']],
    // quoted values may contain &&, ||, parentheses, brackets and escapes
    ['name[Equals]"Gamma && Delta (x)"', ['c']],
    ['(name[Contains]"(x)")', ['c']],
    ['(name[Contains]"x)" || name[Equals]"[b]")', ['c']],
    ['description[Contains]"\\"quotes\\""', ['c']],
    ['description[Contains]"\\\\ back"', ['c']],
    ['name[Equals] "delta" ', ['d']],
    ['name[Equals]"delta"&&count[IsNull]', ['d']],
    ['name[Contains]"  pump"', []],
    ['name[Contains]" pump"', ['a']],
    // unquoted values: a ')' closes a group only while one is open; single '&' and '|' are text
    ['name[Contains]delta (x)', ['c']],
    ['name[Contains]a & b', []],
    ['name[Contains]a | b', []],
    ['(name[Contains]delta)', ['c', 'd']],
    ['count[IsNotNull] && (name[Contains] ta)', ['b', 'c']],
    ['name[Equals]x (count[IsNull])', []],
  ];

  it.each(cases)('evaluates %s', (filterBy, expected) => {
    expect(selectIds({ filterBy })).toEqual(expected);
  });

  it('parses A||B&&C as A||(B&&C)', () => {
    const parsed = parseFilter('a[IsNull]||b[IsNull]&&c[IsNull]');
    expect(parsed).toEqual({
      ok: true,
      value: {
        kind: 'or',
        children: [cond('a', 'IsNull'), { kind: 'and', children: [cond('b', 'IsNull'), cond('c', 'IsNull')] }],
      },
    });
  });

  it('parses A&&B||C as (A&&B)||C and flattens chains of the same operator', () => {
    expect(parseFilter('a[IsNull]&&b[IsNull]||c[IsNull]||d[IsNull]')).toEqual({
      ok: true,
      value: {
        kind: 'or',
        children: [
          { kind: 'and', children: [cond('a', 'IsNull'), cond('b', 'IsNull')] },
          cond('c', 'IsNull'),
          cond('d', 'IsNull'),
        ],
      },
    });
  });

  it('normalises operator names and keeps field names as written', () => {
    expect(parseFilter('CreatedAt[isafter]2024-01-31')).toEqual({
      ok: true,
      value: cond('CreatedAt', 'IsAfter', '2024-01-31'),
    });
  });

  it('records the position of each condition', () => {
    const parsed = parseFilter('  name[Equals]x');
    expect(parsed.ok && parsed.value).toMatchObject({ position: 2 });
  });

  it('treats an empty or whitespace-only filter as no filter', () => {
    expect(parseFilter('')).toEqual({ ok: true, value: null });
    expect(parseFilter('  \t ')).toEqual({ ok: true, value: null });
    expect(selectIds({ filterBy: '' })).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(selectIds({ filterBy: '   ' })).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('rejected filters', () => {
  // [filterBy, text the detail must contain]
  const cases: Array<[string, string]> = [
    ['unknown[Equals]x', "'unknown'"],
    ['name.first[Equals]x', "'name.first'"],
    ['name[Like]x', "'Like'"],
    ['name[Gt]x', "'name'"],
    ['count[Contains]1', "'count'"],
    ['active[Gt]true', "'Gt'"],
    ['status[Contains]Op', "'status'"],
    ['createdAt[StartsWith]2024', "'StartsWith'"],
    ['code[Contains]A', "'code'"],
    ['secret[Equals]s', "'secret'"],
    ['name[Equals', "']'"],
    ['name[Equals x', "']'"],
    ['name Equals]x', "'['"],
    ['name[]x', 'operator'],
    ['name[[Equals]]x', 'operator'],
    ['[Equals]x', 'condition'],
    ['(name[Equals]x', "')'"],
    ['(name[IsNull]))', "')'"],
    ['name[IsNull])', 'takes no value'],
    [')', "')'"],
    ['(', 'condition'],
    ['()', 'condition'],
    ['name[Equals]x && ()', 'condition'],
    ['name[Equals]x&&', 'condition'],
    ['name[Equals]x ||', 'condition'],
    ['&&name[Equals]x', "'&&'"],
    ['||name[Equals]x', "'||'"],
    ['name[Equals]x&&||name[Equals]y', "'||'"],
    ['name[Equals]x&&&count[IsNull]', "'&'"],
    ['name[Equals]', 'non-empty value'],
    ['name[Equals]   ', 'non-empty value'],
    ['name[Equals]""', 'non-empty value'],
    ['name[Equals]x && count[Gt]', 'non-empty value'],
    ['(name[Contains])', 'non-empty value'],
    ['name[IsNull]x', 'takes no value'],
    ['name[IsNotNull]"x"', 'takes no value'],
    ['count[Gt]abc', "'abc'"],
    ['count[Gt]1.2.3', "'1.2.3'"],
    ['count[Gt]0x10', "'0x10'"],
    ['count[Gt]Infinity', "'Infinity'"],
    ['count[Equals]1e999', "'1e999'"],
    ['count[Equals]1,5', "'1,5'"],
    ['count[Equals]"10 "', "'10 '"],
    ['createdAt[Gt]2024-13-01', "'2024-13-01'"],
    ['createdAt[Gt]2024-02-30', "'2024-02-30'"],
    ['createdAt[Gt]2023-02-29', "'2023-02-29'"],
    ['createdAt[Gt]yesterday', "'yesterday'"],
    ['createdAt[Gt]2024-01-31T10:00:00', "'2024-01-31T10:00:00'"],
    ['createdAt[Gt]2024-01-31T25:00:00Z', 'createdAt'],
    ['createdAt[Gt]2024-01-31T10:00:00+25:00', 'createdAt'],
    ['createdAt[Gt]31/01/2024', 'createdAt'],
    ['createdAt[Gt]2024-1-31', 'createdAt'],
    ['active[Equals]yes', "'yes'"],
    ['active[Equals]1', "'1'"],
    ['status[Equals]open', "'open'"],
    ['status[Equals]Unknown', "'Unknown'"],
    ['&', "'&'"],
    ['|', "'|'"],
    ['(name[IsNull]) & (count[IsNull])', "'&'"],
    ['(name[IsNull]) | (count[IsNull])', "'|'"],
    ['name[IsNull] &count[IsNull]', 'takes no value'],
    ['name[Equals]"unterminated', 'Unterminated'],
    ['name[Equals]"a"b', "'b'"],
    ['name[Equals]"bad \\n escape"', 'escape'],
    ['1name[Equals]x', "'1'"],
    ['name[Equals]x || "y"', "'\"'"],
    ['name = x', "'='"],
    ['(name[Equals]x (count[IsNull]))', "')'"],
    ['name[Equals]Gamma && Delta (x)', "'['"],
    [`${'('.repeat(MAX_FILTER_DEPTH + 1)}name[IsNull]${')'.repeat(MAX_FILTER_DEPTH + 1)}`, 'deep'],
  ];

  it.each(cases)('rejects %s with FILTER_PARSING_FAILED', (filterBy, mention) => {
    const error = queryError({ filterBy });
    expect(error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
    expect(error.detail).toContain(mention);
    expect(error.parameters.position).toMatch(/^\d+$/);
  });

  it('rejects a filter that names an unknown column with FILTER_PARSING_FAILED', () => {
    const error = queryError({ filterBy: 'name[Equals]x && Colour[Equals]red' });
    expect(error).toMatchObject({
      code: 'COMMON.QUERY.FILTER_PARSING_FAILED',
      parameters: { filterBy: 'name[Equals]x && Colour[Equals]red', field: 'Colour', position: '17' },
    });
  });

  it('accepts parentheses nested up to the maximum depth', () => {
    const text = `${'('.repeat(MAX_FILTER_DEPTH)}count[IsNull]${')'.repeat(MAX_FILTER_DEPTH)}`;
    expect(selectIds({ filterBy: text })).toEqual(['d']);
  });

  it('does not overflow the stack on very deeply nested input', () => {
    const text = `${'('.repeat(100_000)}name[IsNull]${')'.repeat(100_000)}`;
    expect(parseFilter(text).ok).toBe(false);
  });

  it('reports the parse error position', () => {
    expect(queryError({ filterBy: 'name[Equals]x && & y' }).parameters).toMatchObject({ position: '17' });
  });
});
