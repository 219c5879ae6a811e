import { describe, expect, expectTypeOf, it } from 'vitest';
import { ALL_PERMISSIONS, OPERATIONS, operation, type OperationId } from '../operations/index.js';

describe('operation ids', () => {
  it('name 19 operations, each once, each found by its id', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(ids).toHaveLength(19);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(operation(id).operationId).toBe(id);
  });

  it('are told apart from other strings: operation() refuses an unknown id, an inherited name among them', () => {
    expect(operation('listSkus').operationId).toBe('listSkus');
    expect(() => operation('listSku')).toThrow(/unknown operation listSku/);
    expect(() => operation('toString')).toThrow(/unknown operation toString/);
  });

  it('are typed as a union of literals', () => {
    expectTypeOf<'updatePurchaseOrderLine'>().toExtend<OperationId>();
    expectTypeOf<'updatePurchaseOrderLines'>().not.toExtend<OperationId>();
  });
});

describe('the permissions of the contract', () => {
  it('list every permission an operation requires, once, sorted', () => {
    const required = OPERATIONS.flatMap((op) => (op.permission.name === null ? [] : [op.permission.name]));
    expect(new Set(ALL_PERMISSIONS)).toEqual(new Set(required));
    expect([...ALL_PERMISSIONS]).toEqual([...new Set(required)].sort());
  });
});
