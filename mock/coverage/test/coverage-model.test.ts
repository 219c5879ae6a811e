/** The coverage computation, pure: the universe the contract declares, the per-tenant counts, restriction. */
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { committedDocument, operations } from '../../../spec/test/load.js';
import { CoverageBody } from '../schema.js';
import { CoverageRecorder } from '../recorder.js';
import { parseOperationList, restrictCoverage } from '../report.js';
import { CONTRACT_UNIVERSE } from '../universe.js';
import { OPERATIONS } from '../../../spec/operations/index.js';

const ids = CONTRACT_UNIVERSE.operations.map((op) => op.operationId);

describe('the coverage universe', () => {
  it("holds each operation's responses and each of their x-error-codes in the committed contract, and nothing else", () => {
    const fromDocument = operations(committedDocument()).flatMap(({ op }) =>
      Object.entries<Record<string, any>>(op.responses).flatMap(([status, response]) => {
        const codes: (string | null)[] = response['x-error-codes']?.length ? response['x-error-codes'] : [null];
        return codes.map((code) => `${op.operationId} ${status} ${code ?? '-'} ${response['x-provenance']}`);
      }),
    );
    const fromUniverse = CONTRACT_UNIVERSE.pairs.map(
      (p) => `${p.operationId} ${p.status} ${p.code ?? '-'} ${p.provenance}`,
    );
    expect([...fromUniverse].sort()).toEqual([...fromDocument].sort());
  });

  it('names every operation by method and path template, in document order', () => {
    expect(CONTRACT_UNIVERSE.operations).toHaveLength(OPERATIONS.length);
    expect(CONTRACT_UNIVERSE.operations).toContainEqual({
      operationId: 'updateSkuStock',
      method: 'PUT',
      path: '/v1/items/skus/{skuReference}/stock',
    });
  });

  it('makes a status without codes one pair with code null, and a status with several codes one pair per code', () => {
    const stock = CONTRACT_UNIVERSE.pairs
      .filter((p) => p.operationId === 'updateSkuStock')
      .map((p) => `${p.status} ${p.code}`);
    expect(stock).toEqual([
      '204 null',
      '400 COMMON.VALIDATION.ERROR',
      '401 null',
      '403 COMMON.AUTH.MISSING_PERMISSIONS',
      '404 COMMON.ENTITY.NOT_FOUND',
      '422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
      '422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
      '429 COMMON.RATE_LIMIT.EXCEEDED',
    ]);
  });
});

describe('a coverage recorder', () => {
  it('counts calls per operation and answers per declared pair, and nothing for an answer the contract does not declare', () => {
    const recorder = new CoverageRecorder();
    recorder.record('listSkus', 200, undefined);
    recorder.record('listSkus', 200, undefined);
    recorder.record('listSkus', 400, 'COMMON.QUERY.SORTING_PARSING_FAILED');
    recorder.record('listSkus', 400, undefined);
    recorder.record('listSkus', 500, undefined);
    recorder.record('noSuchOperation', 200, undefined);
    const c = recorder.report();
    expect(c.operations.find((o) => o.operationId === 'listSkus')?.called).toBe(5);
    expect(c.pairs.filter((p) => p.hit > 0).map((p) => [p.operationId, p.status, p.code, p.hit])).toEqual([
      ['listSkus', 200, null, 2],
      ['listSkus', 400, 'COMMON.QUERY.SORTING_PARSING_FAILED', 1],
    ]);
    expect(c.summary).toEqual({
      operations: { hit: 1, total: ids.length },
      pairs: { hit: 2, total: CONTRACT_UNIVERSE.pairs.length },
    });
    expect(Value.Check(CoverageBody, c)).toBe(true);
  });

  it('stays the size of the contract whatever the traffic', () => {
    const recorder = new CoverageRecorder();
    for (let i = 0; i < 20_000; i++) recorder.record(ids[i % ids.length] ?? '', 200 + (i % 300), `CODE.${i}`);
    const c = recorder.report();
    expect(c.operations).toHaveLength(ids.length);
    expect(c.pairs).toHaveLength(CONTRACT_UNIVERSE.pairs.length);
  });

  it('hands out copies: a report changed by its reader changes nothing recorded', () => {
    const recorder = new CoverageRecorder();
    recorder.record('getTenantSelf', 200, undefined);
    const first = recorder.report();
    (first.operations[0] as { called: number }).called = 99;
    first.pairs.length = 0;
    expect(recorder.report().pairs).toHaveLength(CONTRACT_UNIVERSE.pairs.length);
    expect(recorder.report().operations[0]?.called).toBe(0);
  });

  it('counts only operations and pairs of the contract', () => {
    const recorder = new CoverageRecorder();
    recorder.record('getTenantSelf', 401, undefined);
    recorder.record('noSuchOperation', 200, undefined);
    expect(recorder.report().summary).toEqual({
      operations: { hit: 1, total: CONTRACT_UNIVERSE.operations.length },
      pairs: { hit: 1, total: CONTRACT_UNIVERSE.pairs.length },
    });
  });
});

describe('restricting coverage to the operations a client uses', () => {
  it('keeps their rows only and counts the totals over them', () => {
    const recorder = new CoverageRecorder();
    recorder.record('listSkus', 200, undefined);
    recorder.record('createApiKey', 201, undefined);
    const c = restrictCoverage(recorder.report(), ['listSkus', 'updateSkuStock']);
    expect(c.operations.map((o) => o.operationId)).toEqual(['updateSkuStock', 'listSkus']);
    expect(c.summary.operations).toEqual({ hit: 1, total: 2 });
    expect(c.summary.pairs).toEqual({ hit: 1, total: c.pairs.length });
    expect(c.pairs.every((p) => p.operationId === 'listSkus' || p.operationId === 'updateSkuStock')).toBe(true);
  });

  it('reads a comma-separated list, ignoring spaces, repeats and empty entries', () => {
    expect(parseOperationList(' listSkus, ,updateSkuStock,listSkus ', ids)).toEqual({
      ok: true,
      value: ['listSkus', 'updateSkuStock'],
    });
  });

  it('refuses an empty list and names unknown operationIds with the known ones', () => {
    expect(parseOperationList(' , ', ids)).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    const unknown = parseOperationList('listSkus,listSkuz,getTenant', ids);
    expect(unknown).toMatchObject({
      ok: false,
      error: expect.stringContaining("unknown operationIds 'listSkuz', 'getTenant'; the contract has createApiKey,"),
    });
  });
});
