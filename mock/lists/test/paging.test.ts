import { describe, expect, it } from 'vitest';
import { listField } from '../../../spec/lists/fields.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import { parsePaging } from '../paging.js';
import type { ListQuery } from '../query.js';

const FIELDS = [listField('id', 'string'), listField('n', 'number')];
const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `id${String(i).padStart(4, '0')}`, n: i }));

function page(count: number, query: ListQuery) {
  const result = runList(new ListCollection(rows(count)), FIELDS, query);
  if (!result.ok) throw new Error(result.error.detail);
  const plain = runList(rows(count), FIELDS, query);
  expect(plain).toEqual(result);
  return result.value;
}

describe('paging parameters', () => {
  it('defaults to page 1 of 25', () => {
    expect(parsePaging({})).toEqual({ ok: true, value: { pageNumber: 1, pageSize: 25 } });
  });

  it('accepts digit strings and JSON integers', () => {
    expect(parsePaging({ pageNumber: '3', pageSize: '10' })).toEqual({
      ok: true,
      value: { pageNumber: 3, pageSize: 10 },
    });
    expect(parsePaging({ pageNumber: 3, pageSize: 10 })).toEqual({ ok: true, value: { pageNumber: 3, pageSize: 10 } });
    expect(parsePaging({ pageNumber: '007' })).toEqual({ ok: true, value: { pageNumber: 7, pageSize: 25 } });
  });

  it('accepts the bounds 1 and 1000 for pageSize', () => {
    expect(parsePaging({ pageSize: '1' })).toEqual({ ok: true, value: { pageNumber: 1, pageSize: 1 } });
    expect(parsePaging({ pageSize: '1000' })).toEqual({ ok: true, value: { pageNumber: 1, pageSize: 1000 } });
    expect(parsePaging({ pageSize: 1000 })).toEqual({ ok: true, value: { pageNumber: 1, pageSize: 1000 } });
  });

  it('treats null from a JSON body like a missing value', () => {
    expect(parsePaging({ pageNumber: null, pageSize: null } as unknown as ListQuery)).toEqual({
      ok: true,
      value: { pageNumber: 1, pageSize: 25 },
    });
  });

  const badSizes: Array<string | number> = [
    '0',
    '1001',
    '-1',
    '1.5',
    'abc',
    '',
    ' 5',
    '5 ',
    '+5',
    '1e3',
    '0x10',
    0,
    1001,
    -1,
    1.5,
    Number.NaN,
    Infinity,
  ];
  it.each(badSizes.map((v) => [v]))('rejects pageSize %j with COMMON.VALIDATION.ERROR naming pageSize', (pageSize) => {
    expect(parsePaging({ pageSize })).toEqual({
      ok: false,
      error: {
        code: 'COMMON.VALIDATION.ERROR',
        detail: 'pageSize must be an integer between 1 and 1000',
        parameters: { field: 'pageSize' },
      },
    });
  });

  const badNumbers: Array<string | number> = [
    '0',
    '-1',
    '1.5',
    'abc',
    '',
    ' 1',
    '+1',
    '1e3',
    '99999999999999999999',
    0,
    -1,
    2.5,
  ];
  it.each(badNumbers.map((v) => [v]))(
    'rejects pageNumber %j with COMMON.VALIDATION.ERROR naming pageNumber',
    (pageNumber) => {
      const result = parsePaging({ pageNumber });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'COMMON.VALIDATION.ERROR', parameters: { field: 'pageNumber' } },
      });
      expect(!result.ok && result.error.detail).toContain('pageNumber');
    },
  );

  it('accepts a very large pageNumber and returns an empty page', () => {
    expect(page(3, { pageNumber: '1000000' })).toEqual({
      results: [],
      pageNumber: 1_000_000,
      pageSize: 25,
      totalPages: 1,
      totalCount: 3,
    });
  });
});

describe('page envelope', () => {
  it('returns the first 25 items by default with the totals', () => {
    const p = page(60, {});
    expect(p.results.map((r) => r.n)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(p).toMatchObject({ pageNumber: 1, pageSize: 25, totalPages: 3, totalCount: 60 });
  });

  it('returns a partial last page', () => {
    const p = page(60, { pageNumber: '3' });
    expect(p.results.map((r) => r.n)).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
    expect(p).toMatchObject({ pageNumber: 3, totalPages: 3, totalCount: 60 });
  });

  it('returns empty results with the correct totals beyond the last page', () => {
    expect(page(60, { pageNumber: '4' })).toEqual({
      results: [],
      pageNumber: 4,
      pageSize: 25,
      totalPages: 3,
      totalCount: 60,
    });
  });

  it('computes totalPages as ceil(totalCount / pageSize), 0 for no items', () => {
    expect(page(0, {})).toEqual({ results: [], pageNumber: 1, pageSize: 25, totalPages: 0, totalCount: 0 });
    expect(page(1, { pageSize: '1000' })).toMatchObject({ totalPages: 1, totalCount: 1 });
    expect(page(50, {})).toMatchObject({ totalPages: 2, totalCount: 50 });
    expect(page(51, {})).toMatchObject({ totalPages: 3, totalCount: 51 });
    expect(page(7, { pageSize: '1' })).toMatchObject({ totalPages: 7, totalCount: 7 });
  });

  it('counts only matching items when filtering', () => {
    const p = page(100, { filterBy: 'n[Gte]90', pageSize: '4', pageNumber: '3' });
    expect(p.results.map((r) => r.n)).toEqual([98, 99]);
    expect(p).toMatchObject({ totalPages: 3, totalCount: 10 });
  });

  it('pages through a sorted, filtered list without gaps or repeats', () => {
    const seen: number[] = [];
    for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
      seen.push(...page(100, { filterBy: 'n[Lt]42', sortBy: '-n', pageSize: 10, pageNumber }).results.map((r) => r.n));
    }
    expect(seen).toEqual(Array.from({ length: 42 }, (_, i) => 41 - i));
  });

  it('reports paging errors before filter and sort errors', () => {
    const result = runList(rows(3), FIELDS, { pageSize: '0', filterBy: 'nope[', sortBy: 'nope' });
    expect(!result.ok && result.error.code).toBe('COMMON.VALIDATION.ERROR');
    const second = runList(rows(3), FIELDS, { filterBy: 'nope[', sortBy: 'nope' });
    expect(!second.ok && second.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
    const third = runList(rows(3), FIELDS, { filterBy: 'n[IsNull]', sortBy: 'nope' });
    expect(!third.ok && third.error.code).toBe('COMMON.QUERY.SORTING_PARSING_FAILED');
  });
});
