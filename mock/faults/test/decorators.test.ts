import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../spec/operations/index.js';
import { ok, type Handler } from '../../handlers/context.js';
import { withHandlerFaults } from '../handlers.js';
import { withListFaults } from '../lists.js';
import { problemFaultsHook } from '../problems.js';
import { FAULTS, type FaultName } from '../registry.js';

/** A handler per operation of the contract, each a distinct function. */
function handlers(): Record<string, Handler> {
  return Object.fromEntries(OPERATIONS.map((op) => [op.operationId, () => ok(200, { op: op.operationId })]));
}

/** The operation ids whose handler a decorator replaced. */
function wrapped(before: Record<string, Handler>, after: Record<string, Handler>): string[] {
  return Object.keys(before)
    .filter((id) => before[id] !== after[id])
    .sort();
}

const LIST_OPERATIONS = OPERATIONS.filter((op) => op.list)
  .map((op) => op.operationId)
  .sort();

describe('the planted-fault decorators', () => {
  it('pass the faithful handlers through untouched when no fault is planted', () => {
    const h = handlers();
    expect(withHandlerFaults(h, new Set())).toBe(h);
    expect(withListFaults(h, new Set())).toBe(h);
    expect(problemFaultsHook(new Set())).toBeNull();
  });

  it('pass them through untouched for faults of other parts', () => {
    const h = handlers();
    const others = new Set<FaultName>(['auth-401-with-code', 'signature-uppercase-hex']);
    expect(withHandlerFaults(h, others)).toBe(h);
    expect(withListFaults(h, others)).toBe(h);
    expect(problemFaultsHook(new Set<FaultName>(['contains-as-equals', 'signature-reserialised']))).toBeNull();
  });

  it.each([
    ['stock-update-200-body', 'updateSkuStock'],
    ['unknown-error-code-200', 'getError'],
    ['cancelled-line-modifiable', 'updatePurchaseOrderLine'],
  ] as const)('wrap %s around %s only', (fault, operationId) => {
    const h = handlers();
    expect(wrapped(h, withHandlerFaults(h, new Set([fault])))).toEqual([operationId]);
  });

  it.each([
    'page-size-default-20',
    'page-size-1001-accepted',
    'filter-unknown-column-accepted',
    'contains-as-equals',
    'sort-descending-ignored',
    'total-pages-off-by-one',
  ] as const)('wrap %s around every list and search operation, and nothing else', (fault) => {
    const h = handlers();
    expect(wrapped(h, withListFaults(h, new Set([fault])))).toEqual(LIST_OPERATIONS);
  });

  it('give every planted fault a decorator somewhere', () => {
    const h = handlers();
    const webhookFaults = ['signature-uppercase-hex', 'signature-reserialised'];
    for (const fault of Object.keys(FAULTS) as FaultName[]) {
      const one = new Set([fault]);
      const decorated =
        withHandlerFaults(h, one) !== h ||
        withListFaults(h, one) !== h ||
        problemFaultsHook(one) !== null ||
        webhookFaults.includes(fault);
      expect(decorated, fault).toBe(true);
    }
  });
});
