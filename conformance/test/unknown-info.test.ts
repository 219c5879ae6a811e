import { describe, expect, it } from 'vitest';
import { sharedContract } from '../../spec/shared-contract.js';
import { UnknownFieldLines } from '../checks/unknown-info.js';

const { validator } = sharedContract();
const sku = {
  id: 's1',
  reference: 'R1',
  name: 'Bolt',
  description: null,
  familyId: null,
  status: 'Active',
  baseUnitOfMeasureId: 'u',
  totalStock: 1,
  isStockControlled: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastModifiedAt: '2025-01-01T00:00:00.000Z',
};
const page = (items: object[], extra: object = {}) => ({
  results: items,
  pageNumber: 1,
  pageSize: 25,
  totalPages: 1,
  totalCount: items.length,
  ...extra,
});
const problem = (extra: object) => ({
  type: 'http://x/errors/COMMON.ENTITY.NOT_FOUND',
  title: 'Not found',
  status: 404,
  detail: 'd',
  instance: 'GET /v1/x',
  ...extra,
});
const tenant = {
  id: 't',
  orgCode: 'o',
  name: 'n',
  plan: 'Starter',
  timeZone: 'UTC',
  isExpired: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('information lines of unknown fields', () => {
  it('give one line per operation and field, however many items and answers carry it', () => {
    const lines = new UnknownFieldLines(validator);
    lines.add(
      'listSkus',
      200,
      page([
        { ...sku, warehouseZone: 'A' },
        { ...sku, id: 's2', warehouseZone: 'B' },
      ]),
    );
    lines.add('listSkus', 200, page([{ ...sku, warehouseZone: 'C' }]));
    expect(lines.ordered()).toEqual(['listSkus: results[].warehouseZone']);
  });

  it('list the fields of items before envelope members and problem members, one line of every operation first', () => {
    const lines = new UnknownFieldLines(validator);
    lines.add('listSkus', 404, problem({ traceId: 'x' }));
    lines.add('listSkus', 200, page([{ ...sku, warehouseZone: 'A' }], { links: {} }));
    lines.add('getTenantSelf', 200, { ...tenant, region: 'eu' });
    expect(lines.ordered()).toEqual([
      'listSkus: results[].warehouseZone',
      'getTenantSelf: region',
      'listSkus: links',
      'listSkus: traceId',
    ]);
  });

  it('name a problem code the catalog does not list, and only that', () => {
    const lines = new UnknownFieldLines(validator);
    lines.add('listSkus', 404, problem({ code: 'ITEMS.SKU.SOMETHING_NEW' }));
    lines.add('listSkus', 404, problem({ code: 'COMMON.ENTITY.NOT_FOUND' }));
    expect(lines.ordered()).toEqual(['listSkus: code ITEMS.SKU.SOMETHING_NEW (not in the error catalog)']);
  });

  it("give nothing for answers that carry only the contract's fields", () => {
    const lines = new UnknownFieldLines(validator);
    lines.add('listSkus', 200, page([sku]));
    lines.add('getTenantSelf', 200, tenant);
    lines.add('updateSkuStock', 204, undefined);
    expect(lines.ordered()).toEqual([]);
  });
});
