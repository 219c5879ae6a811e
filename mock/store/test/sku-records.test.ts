import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSharedWorld, tenantWorld, type SkuRecord } from '../../../fixtures/seed/index.js';
import { SkuRecords } from '../sku-records.js';

const world = () => tenantWorld(generateSharedWorld({ seed: 42, skus: 12 }), 'sku-records');

/** The records of a seeded catalog as an ordinary Map: what `SkuRecords` must behave like. */
function asMap(records: Iterable<[string, SkuRecord]>): Map<string, SkuRecord> {
  return new Map(records);
}

/** A record of `reference` with a marker in its item, so two writes are told apart. */
function written(reference: string, marker: number): SkuRecord {
  return {
    item: {
      id: `sku_${reference}`,
      reference,
      name: `written ${marker}`,
      description: null,
      familyId: null,
      status: 'Active',
      baseUnitOfMeasureId: 'uom_x',
      totalStock: marker,
      isStockControlled: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      lastModifiedAt: '2025-01-01T00:00:00.000Z',
    },
    inspections: [],
    unitConversions: [{ unitOfMeasureId: 'uom_x', factor: 1 }],
    stock: [{ locationReference: 'WH1-A-01-01', lotId: null, quantity: marker }],
  };
}

describe('the SKU records of a tenant', () => {
  it('hold every seeded SKU by reference, in catalog order, built from the compact catalog', () => {
    const { skus } = world();
    const records = new SkuRecords(skus);
    expect(records.size).toBe(skus.length);
    expect([...records.keys()]).toEqual(skus.items.map((item) => item.reference));
    expect([...records.values()]).toEqual([...skus]);
    const reference = skus.items[3]!.reference;
    expect(records.has(reference)).toBe(true);
    expect(records.get(reference)).toEqual(skus.record(3));
    expect(records.get('NOPE-000001')).toBeUndefined();
    expect(records.has('NOPE-000001')).toBe(false);
  });

  it('give a caller a record it may change without changing the tenant', () => {
    const { skus } = world();
    const records = new SkuRecords(skus);
    const reference = skus.items[0]!.reference;
    records.get(reference)!.stock.length = 0;
    expect(records.get(reference)!.stock.length).toBeGreaterThan(0);
  });

  it('keep a written record whole and return it from then on, in the place of the seeded one', () => {
    const { skus } = world();
    const records = new SkuRecords(skus);
    const reference = skus.items[2]!.reference;
    const record = written(reference, 7);
    records.set(reference, record);
    expect(records.get(reference)).toBe(record);
    expect([...records.keys()][2]).toBe(reference);
    expect(records.size).toBe(skus.length);
  });

  it('behave like a Map filled with the seeded records under any sequence of sets and deletes', () => {
    const { skus } = world();
    const seeded = skus.items.map((item) => item.reference);
    const reference = fc.oneof(fc.constantFrom(...seeded), fc.constantFrom('NEW-000001', 'NEW-000002'));
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), reference, marker: fc.integer({ min: 1, max: 1000 }) }),
      fc.record({ kind: fc.constant('delete' as const), reference }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const records = new SkuRecords(skus);
        const model = asMap(records);
        for (const op of operations) {
          if (op.kind === 'set') {
            const record = written(op.reference, op.marker);
            records.set(op.reference, record);
            model.set(op.reference, record);
          } else expect(records.delete(op.reference)).toBe(model.delete(op.reference));
        }
        expect([...records]).toEqual([...model]);
        expect(records.size).toBe(model.size);
        for (const r of [...seeded, 'NEW-000001', 'NEW-000002']) {
          expect(records.has(r)).toBe(model.has(r));
          expect(records.get(r)).toEqual(model.get(r));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('may be written while they are iterated, as a Map may', () => {
    const { skus } = world();
    const records = new SkuRecords(skus);
    const seen: string[] = [];
    for (const [reference, record] of records) {
      seen.push(reference);
      records.set(reference, { ...record, item: { ...record.item, familyId: null } });
    }
    expect(seen).toEqual(skus.items.map((item) => item.reference));
    expect([...records.values()].every((r) => r.item.familyId === null)).toBe(true);
  });
});
