import { describe, expect, it } from 'vitest';
import { ContractValidator } from '../validate.js';
import { committedDocument } from './load.js';

const validator = new ContractValidator(committedDocument());

const sku = {
  id: 'sku_1',
  reference: 'SKU-1',
  name: 'Hex bolt M8',
  description: null,
  familyId: 'fam_1',
  status: 'Active',
  baseUnitOfMeasureId: 'uom_pcs',
  totalStock: 12,
  isStockControlled: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastModifiedAt: '2025-01-02T00:00:00.000Z',
};
const page = { results: [sku], pageNumber: 1, pageSize: 25, totalPages: 1, totalCount: 1 };
const respond = (body: unknown) => validator.validateResponse('listSkus', { status: 200, contentType: 'application/json', body });

describe('the contract validator is strict', () => {
  it('accepts a well-formed SKU page', () => {
    expect(respond(page)).toEqual({ ok: true });
  });

  it('rejects a response item with a missing field', () => {
    const { name: _name, ...rest } = sku;
    expect(respond({ ...page, results: [rest] }).ok).toBe(false);
  });

  it('rejects a response item with a wrong type', () => {
    expect(respond({ ...page, results: [{ ...sku, totalStock: '12' }] }).ok).toBe(false);
  });

  it('rejects a response item with an extra field', () => {
    expect(respond({ ...page, results: [{ ...sku, secret: 1 }] }).ok).toBe(false);
  });

  it('rejects an envelope with a missing field or an extra field', () => {
    const { totalCount: _t, ...noTotal } = page;
    expect(respond(noTotal).ok).toBe(false);
    expect(respond({ ...page, next: 2 }).ok).toBe(false);
  });

  it('rejects a problem with an unknown code or a missing instance', () => {
    const problem = { type: 'http://x/errors/COMMON.ENTITY.NOT_FOUND', title: 'Not found', status: 404, detail: 'd', instance: 'GET /v1/x', code: 'COMMON.ENTITY.NOT_FOUND' };
    expect(validator.validateProblem({ status: 404, contentType: 'application/problem+json', body: problem })).toEqual({ ok: true });
    expect(validator.validateProblem({ status: 404, contentType: 'application/problem+json', body: { ...problem, code: 'NO.SUCH.CODE' } }).ok).toBe(false);
    const { instance: _i, ...noInstance } = problem;
    expect(validator.validateProblem({ status: 404, contentType: 'application/problem+json', body: noInstance }).ok).toBe(false);
  });

  it('rejects a status the operation does not declare and a body on a no-content response', () => {
    expect(validator.validateResponse('listSkus', { status: 201, contentType: 'application/json', body: page }).ok).toBe(false);
    expect(validator.validateResponse('updateSkuStock', { status: 204, contentType: undefined, body: undefined })).toEqual({ ok: true });
    expect(validator.validateResponse('updateSkuStock', { status: 204, contentType: 'application/json', body: { ok: true } }).ok).toBe(false);
  });
});
