import type { Coverage } from '../../mock/coverage/schema.js';
import { formatPercent, missingPairPhrase, operationLabel, operationsById, percentOf } from './wording.js';

/** The minimums a suite must reach, in percent (absent: no minimum). */
export interface Minimums {
  readonly operations?: number;
  readonly pairs?: number;
}

/** The outcome of the gate: one line per minimum not reached, naming what is missing. */
export interface GateResult {
  readonly ok: boolean;
  readonly failures: readonly string[];
}

/** How many missing items a failure line names before it counts the rest (the report lists them all). */
const NAMED = 10;

/** Parses `80`, `80%` or `99.5%`: a percentage from 0 to 100. */
export function parsePercent(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const m = /^\s*(\d{1,3}(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const value = m ? Number(m[1]) : Number.NaN;
  if (!(value >= 0 && value <= 100))
    return { ok: false, error: `expected a percentage from 0 to 100 such as 80 or 100%, got '${text.slice(0, 40)}'` };
  return { ok: true, value };
}

function namedList(items: readonly string[]): string {
  const shown = items.slice(0, NAMED).join(', ');
  return items.length > NAMED ? `${shown}, and ${items.length - NAMED} more` : shown;
}

/**
 * Checks a coverage against minimums (docs/DESIGN.md, "Testing API": `opsapi coverage` exits 1 under a minimum). A failure
 * reads `pairs 12% < 100%: never saw 429 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock), ...`.
 */
export function checkMinimums(coverage: Coverage, minimums: Minimums): GateResult {
  const failures: string[] = [];
  const { operations, pairs } = coverage.summary;
  const operationShare = percentOf(operations.hit, operations.total);
  if (minimums.operations !== undefined && operationShare < minimums.operations) {
    const never = coverage.operations.filter((op) => op.called === 0).map(operationLabel);
    failures.push(
      `operations ${formatPercent(operationShare)} < ${formatPercent(minimums.operations)}: never called ${namedList(never)}`,
    );
  }
  const pairShare = percentOf(pairs.hit, pairs.total);
  if (minimums.pairs !== undefined && pairShare < minimums.pairs) {
    const byId = operationsById(coverage);
    const never = coverage.pairs
      .filter((pair) => pair.hit === 0)
      .map((pair) => missingPairPhrase(pair, coverage, byId));
    failures.push(
      `pairs ${formatPercent(pairShare)} < ${formatPercent(minimums.pairs)}: never saw ${namedList(never)}`,
    );
  }
  return { ok: failures.length === 0, failures };
}
