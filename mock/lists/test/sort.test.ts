import { describe, expect, it } from 'vitest';
import { listField, type ListFieldTable } from '../../../spec/lists/fields.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import { parseSort } from '../sort.js';

interface Row {
  id: string;
  name: string | null;
  rank?: number | null;
  at: string | null;
  on: boolean | null;
  kind: string;
}

const FIELDS: ListFieldTable = [
  listField('id', 'string'),
  listField('name', 'string', { nullable: true }),
  listField('rank', 'number', { nullable: true }),
  listField('at', 'date', { nullable: true }),
  listField('on', 'boolean', { nullable: true }),
  listField('kind', 'enum', { enumValues: ['x', 'y'] }),
  listField('hidden', 'string', { sortable: false }),
];

const ROWS: Row[] = [
  { id: 'r5', name: 'beta', rank: 2, at: '2024-01-02T00:00:00Z', on: true, kind: 'y' },
  { id: 'r1', name: 'Beta', rank: 10, at: '2024-01-01T23:00:00-02:00', on: false, kind: 'x' },
  { id: 'r3', name: null, rank: null, at: null, on: null, kind: 'x' },
  { id: 'r2', name: 'alpha', rank: 2, at: '2024-01-01T12:00:00Z', on: true, kind: 'y' },
  { id: 'r4', name: 'beta', at: '2024-01-01', on: false, kind: 'x' },
  { id: 'r0', name: 'Zed', rank: -3.5, at: '2023-06-01T00:00:00.000Z', on: true, kind: 'y' },
];

function order(sortBy: string | undefined, rows: readonly Row[] = ROWS): string[] {
  const array = runList(rows, FIELDS, { sortBy, pageSize: 1000 });
  const collection = runList(new ListCollection(rows), FIELDS, { sortBy, pageSize: 1000 });
  if (!array.ok || !collection.ok) throw new Error(`sort failed: ${sortBy}`);
  const ids = array.value.results.map((r) => r.id);
  expect(collection.value.results.map((r) => r.id)).toEqual(ids);
  return ids;
}

describe('sortBy', () => {
  it('orders by id ascending when no sortBy is given', () => {
    expect(order(undefined)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    expect(order('')).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    expect(order('   ')).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('sorts strings ascending by ordinal code units with nulls first and ties broken by id', () => {
    // 'B' (66) < 'Z' (90) < 'a' (97): ordinal, not locale order
    expect(order('name')).toEqual(['r3', 'r1', 'r0', 'r2', 'r4', 'r5']);
  });

  it('sorts descending with nulls last while the id tiebreak stays ascending', () => {
    expect(order('-name')).toEqual(['r4', 'r5', 'r2', 'r0', 'r1', 'r3']);
  });

  it('sorts numbers numerically, treating a missing value like null', () => {
    expect(order('rank')).toEqual(['r3', 'r4', 'r0', 'r2', 'r5', 'r1']);
    expect(order('-rank')).toEqual(['r1', 'r2', 'r5', 'r0', 'r3', 'r4']);
  });

  it('sorts dates by instant regardless of the written offset', () => {
    // r1 = 2024-01-02T01:00Z, r4 = 2024-01-01T00:00Z
    expect(order('at')).toEqual(['r3', 'r0', 'r4', 'r2', 'r5', 'r1']);
    expect(order('-at')).toEqual(['r1', 'r5', 'r2', 'r4', 'r0', 'r3']);
  });

  it('sorts booleans false before true', () => {
    expect(order('on')).toEqual(['r3', 'r1', 'r4', 'r0', 'r2', 'r5']);
    expect(order('-on')).toEqual(['r0', 'r2', 'r5', 'r1', 'r4', 'r3']);
  });

  it('sorts by several keys, each with its own direction', () => {
    expect(order('kind,-rank')).toEqual(['r1', 'r3', 'r4', 'r2', 'r5', 'r0']);
    expect(order('-kind,name')).toEqual(['r0', 'r2', 'r5', 'r3', 'r1', 'r4']);
    expect(order(' rank , -at ')).toEqual(['r4', 'r3', 'r0', 'r5', 'r2', 'r1']);
  });

  it('matches sort field names ignoring case', () => {
    expect(order('-NAME')).toEqual(order('-name'));
    expect(order('Rank,AT')).toEqual(order('rank,at'));
  });

  it('keeps an explicit id sort and its direction', () => {
    expect(order('-id')).toEqual(['r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
  });

  it('is stable under input order: the same rows in any order sort the same way', () => {
    const reversed = [...ROWS].reverse();
    for (const sortBy of ['name', '-name', 'kind', '-on,kind', 'rank']) {
      expect(order(sortBy, reversed)).toEqual(order(sortBy));
    }
  });

  const rejected: Array<[string, string]> = [
    ['colour', "'colour'"],
    ['-colour', "'colour'"],
    ['hidden', "'hidden'"],
    ['name,', 'empty segment'],
    [',name', 'empty segment'],
    ['name,,rank', 'empty segment'],
    ['-', 'empty segment'],
    ['name,-name', "'name'"],
    ['name,NAME', "'name'"],
    ['--name', "'--name'"],
    ['+name', "'+name'"],
    ['- name', "'- name'"],
    ['name desc', "'name desc'"],
    ['name;rank', "'name;rank'"],
  ];

  it.each(rejected)('rejects sortBy %j with SORTING_PARSING_FAILED', (sortBy, mention) => {
    const result = runList(ROWS, FIELDS, { sortBy });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('COMMON.QUERY.SORTING_PARSING_FAILED');
    expect(result.error.detail).toContain(mention);
    expect(result.error.parameters.sortBy).toBe(sortBy);
  });

  it('returns a canonical cache key that ignores spelling', () => {
    const a = parseSort('-Name, rank', FIELDS);
    const b = parseSort('-name,RANK', FIELDS);
    expect(a.ok && b.ok && a.value.cacheKey === b.value.cacheKey).toBe(true);
  });
});
