import type { Coverage, CoverageOperation, CoveragePair } from './schema.js';

/** How many operations were called and how many pairs were met, over the ones listed. */
export function summarize(
  operations: readonly CoverageOperation[],
  pairs: readonly CoveragePair[],
): Coverage['summary'] {
  return {
    operations: { hit: operations.filter((op) => op.called > 0).length, total: operations.length },
    pairs: { hit: pairs.filter((pair) => pair.hit > 0).length, total: pairs.length },
  };
}

/**
 * Parses a list of operationIds (`a,b` or `a, b`): the ids, or the unknown ones named with the known ones.
 * Empty entries are ignored; an empty list is refused (it would make every denominator 0).
 */
export function parseOperationList(
  text: string,
  known: readonly string[],
): { ok: true; value: string[] } | { ok: false; error: string } {
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  if (ids.length === 0)
    return { ok: false, error: 'the operation list is empty: name operationIds separated by commas' };
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    const names = unknown.map((id) => `'${id.slice(0, 100)}'`).join(', ');
    return {
      ok: false,
      error: `unknown operationId${unknown.length === 1 ? '' : 's'} ${names}; the contract has ${known.join(', ')}`,
    };
  }
  return { ok: true, value: ids };
}

/**
 * Coverage restricted to some operations: their rows only, and the summary's totals over them (a suite gates
 * "every operation we use, and its 401/403/404/429", not the whole contract). The ids must be known (parseOperationList).
 */
export function restrictCoverage(coverage: Coverage, operationIds: readonly string[]): Coverage {
  const keep = new Set(operationIds);
  const operations = coverage.operations.filter((op) => keep.has(op.operationId));
  const pairs = coverage.pairs.filter((pair) => keep.has(pair.operationId));
  return { operations, pairs, summary: summarize(operations, pairs) };
}
