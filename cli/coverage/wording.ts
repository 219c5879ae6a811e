import type { Coverage, CoverageOperation, CoveragePair } from '../../mock/coverage/schema.js';

/** `PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)`: how every message names an operation. */
export function operationLabel(op: Pick<CoverageOperation, 'operationId' | 'method' | 'path'>): string {
  return `${op.method} ${op.path} (${op.operationId})`;
}

/**
 * How a pair is named: its status alone when the operation answers that status one way (`429`), with the code
 * when it has several (`400 COMMON.QUERY.SORTING_PARSING_FAILED`).
 */
export function pairLabel(pair: CoveragePair, pairs: readonly CoveragePair[]): string {
  const alike = pairs.filter((p) => p.operationId === pair.operationId && p.status === pair.status).length;
  return alike > 1 && pair.code !== null ? `${pair.status} ${pair.code}` : String(pair.status);
}

/** A share in percent, 100 for an empty denominator (nothing to cover is fully covered). */
export function percentOf(hit: number, total: number): number {
  return total === 0 ? 100 : (hit / total) * 100;
}

/** A percentage as printed: at most one decimal, rounded down, so that only a complete share reads 100%. */
export function formatPercent(value: number): string {
  return `${Math.floor(value * 10 + 1e-9) / 10}%`;
}

/** The operations of a coverage keyed by operationId. */
export function operationsById(coverage: Coverage): Map<string, CoverageOperation> {
  return new Map(coverage.operations.map((op) => [op.operationId, op]));
}

/** `429 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)`: a pair the traffic never met. */
export function missingPairPhrase(pair: CoveragePair, coverage: Coverage, byId = operationsById(coverage)): string {
  const op = byId.get(pair.operationId);
  return `${pairLabel(pair, coverage.pairs)} on ${op ? operationLabel(op) : pair.operationId}`;
}
