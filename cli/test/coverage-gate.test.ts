/** The gate and the wording of `opsapi coverage`, pure: minimums, what a failure names, percentages. */
import { describe, expect, it } from 'vitest';
import type { Coverage } from '../../mock/coverage/schema.js';
import { checkMinimums, parsePercent } from '../coverage/gate.js';
import { coverageText } from '../coverage/text.js';
import { formatPercent, pairLabel } from '../coverage/wording.js';

/** A small coverage: listSkus called with two answers met; updateSkuStock never called. */
function sample(): Coverage {
  const operations = [
    { operationId: 'updateSkuStock', method: 'PUT', path: '/v1/items/skus/{skuReference}/stock', called: 0 },
    { operationId: 'listSkus', method: 'GET', path: '/v1/items/skus', called: 3 },
  ];
  const pairs = [
    { operationId: 'updateSkuStock', status: 204, code: null, provenance: 'documented' as const, hit: 0 },
    {
      operationId: 'updateSkuStock',
      status: 422,
      code: 'COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
      provenance: 'documented' as const,
      hit: 0,
    },
    {
      operationId: 'updateSkuStock',
      status: 422,
      code: 'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
      provenance: 'documented' as const,
      hit: 0,
    },
    {
      operationId: 'updateSkuStock',
      status: 429,
      code: 'COMMON.RATE_LIMIT.EXCEEDED',
      provenance: 'documented' as const,
      hit: 0,
    },
    { operationId: 'listSkus', status: 200, code: null, provenance: 'inferred' as const, hit: 2 },
    { operationId: 'listSkus', status: 401, code: null, provenance: 'documented' as const, hit: 1 },
  ];
  return { operations, pairs, summary: { operations: { hit: 1, total: 2 }, pairs: { hit: 2, total: 6 } } };
}

describe('a percentage flag', () => {
  it.each([
    ['100%', 100],
    ['80', 80],
    [' 99.5 % ', 99.5],
    ['0', 0],
  ])('reads %j as %d', (text, value) => {
    expect(parsePercent(text)).toEqual({ ok: true, value });
  });

  it.each(['101', '-1', 'all', '', '50%%', '1e2'])('refuses %j', (text) => {
    expect(parsePercent(text)).toMatchObject({ ok: false, error: expect.stringContaining('percentage from 0 to 100') });
  });
});

describe('the coverage gate', () => {
  it('passes without minimums, and at or above them', () => {
    expect(checkMinimums(sample(), {})).toEqual({ ok: true, failures: [] });
    expect(checkMinimums(sample(), { operations: 50, pairs: 33 })).toEqual({ ok: true, failures: [] });
  });

  it('fails under a minimum with one line naming every operation never called', () => {
    expect(checkMinimums(sample(), { operations: 100 })).toEqual({
      ok: false,
      failures: ['operations 50% < 100%: never called PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)'],
    });
  });

  it('names each pair never met: the status alone when the operation answers it one way, with the code otherwise', () => {
    const { failures } = checkMinimums(sample(), { pairs: 100 });
    expect(failures).toEqual([
      'pairs 33.3% < 100%: never saw 204 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock), ' +
        '422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock), ' +
        '422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock), ' +
        '429 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)',
    ]);
  });

  it('names ten missing pairs and counts the rest', () => {
    const c = sample();
    const many = Array.from({ length: 14 }, (_, i) => ({
      operationId: 'listSkus',
      status: 400 + i,
      code: null,
      provenance: 'inferred' as const,
      hit: 0,
    }));
    const coverage = { ...c, pairs: many, summary: { ...c.summary, pairs: { hit: 0, total: 14 } } };
    const [line] = checkMinimums(coverage, { pairs: 1 }).failures;
    expect(line).toMatch(
      /^pairs 0% < 1%: never saw 400 on GET \/v1\/items\/skus \(listSkus\), .*409 on GET \/v1\/items\/skus \(listSkus\), and 4 more$/,
    );
  });

  it('reads an empty denominator as fully covered', () => {
    const empty: Coverage = {
      operations: [],
      pairs: [],
      summary: { operations: { hit: 0, total: 0 }, pairs: { hit: 0, total: 0 } },
    };
    expect(checkMinimums(empty, { operations: 100, pairs: 100 }).ok).toBe(true);
  });
});

describe('the wording', () => {
  it('prints a share rounded down, so that only a complete one reads 100%', () => {
    expect(formatPercent((199 / 200) * 100)).toBe('99.5%');
    expect(formatPercent((1999 / 2000) * 100)).toBe('99.9%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(100 / 3)).toBe('33.3%');
  });

  it('labels a pair by status, or by status and code when the status has several codes', () => {
    const { pairs } = sample();
    expect(pairs.map((p) => pairLabel(p, pairs))).toEqual([
      '204',
      '422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
      '422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
      '429',
      '200',
      '401',
    ]);
  });

  it('prints the totals, then each operation with the answers never met', () => {
    expect(coverageText(sample(), 'http://127.0.0.1:4010').split('\n')).toEqual([
      'opsapi coverage of http://127.0.0.1:4010: operations 1/2 called (50%), answers 2/6 met (33.3%)',
      '  PUT /v1/items/skus/{skuReference}/stock (updateSkuStock): never called, met 0/4; never saw 204, 422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED, 422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED, 429',
      '  GET /v1/items/skus (listSkus): called 3, met 2/2',
      '',
    ]);
  });
});
