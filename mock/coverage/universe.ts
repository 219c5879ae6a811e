import type { Provenance } from '../../spec/provenance.js';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';

/** An operation of the contract as coverage names it. */
interface UniverseOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/** A status/code pair the contract declares for an operation (`code: null`: a status without a code). */
interface UniversePair {
  readonly operationId: string;
  readonly status: number;
  readonly code: string | null;
  readonly provenance: Provenance;
}

/**
 * Everything a client can exercise: every operation and every answer the contract declares for it, in document
 * order, pairs by status. Indexed, so recording an answer is two map look-ups.
 */
interface CoverageUniverse {
  readonly operations: readonly UniverseOperation[];
  readonly pairs: readonly UniversePair[];
  /** Position of an operation in `operations`. */
  operationAt(operationId: string): number | undefined;
  /** Position of a pair in `pairs`. */
  pairAt(operationId: string, status: number, code: string | null): number | undefined;
}

function pairKey(operationId: string, status: number, code: string | null): string {
  return `${operationId} ${status} ${code ?? ''}`;
}

/** The pairs of one operation: its success, and each error status with each of its codes (docs/DESIGN.md, "Testing API"). */
function pairsOf(op: OperationDef): UniversePair[] {
  const { operationId } = op;
  const pairs: UniversePair[] = [
    { operationId, status: op.success.status, code: null, provenance: op.success.provenance },
  ];
  for (const error of op.errors) {
    // A status answered without a code (the plain 401) is one pair with `code: null` (Errors / Problem body: `code` absent).
    const codes: readonly (string | null)[] = error.codes.length > 0 ? error.codes : [null];
    for (const code of codes) pairs.push({ operationId, status: error.status, code, provenance: error.provenance });
  }
  return pairs.sort((a, b) => a.status - b.status);
}

/** The universe of the contract's operations. */
function coverageUniverse(): CoverageUniverse {
  const ops = OPERATIONS.map((op) => ({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path }));
  const pairs = OPERATIONS.flatMap(pairsOf);
  const opIndex = new Map(ops.map((op, i) => [op.operationId, i]));
  const pairIndex = new Map(pairs.map((p, i) => [pairKey(p.operationId, p.status, p.code), i]));
  return {
    operations: ops,
    pairs,
    operationAt: (operationId) => opIndex.get(operationId),
    pairAt: (operationId, status, code) => pairIndex.get(pairKey(operationId, status, code)),
  };
}

/** The contract's universe, built once. */
export const CONTRACT_UNIVERSE: CoverageUniverse = coverageUniverse();
