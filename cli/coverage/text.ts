import type { Coverage } from '../../mock/coverage/schema.js';
import { formatPercent, operationLabel, pairLabel, percentOf } from './wording.js';

/** The terminal summary: the totals, then one line per operation naming the answers never met. */
export function coverageText(coverage: Coverage, target: string): string {
  const { operations, pairs } = coverage.summary;
  const lines = [
    `opsapi coverage of ${target}: operations ${operations.hit}/${operations.total} called (${formatPercent(percentOf(operations.hit, operations.total))}), answers ${pairs.hit}/${pairs.total} met (${formatPercent(percentOf(pairs.hit, pairs.total))})`,
  ];
  for (const op of coverage.operations) {
    const own = coverage.pairs.filter((p) => p.operationId === op.operationId);
    const never = own.filter((p) => p.hit === 0).map((p) => pairLabel(p, coverage.pairs));
    const calls = op.called > 0 ? `called ${op.called}` : 'never called';
    lines.push(
      `  ${operationLabel(op)}: ${calls}, met ${own.length - never.length}/${own.length}${never.length > 0 ? `; never saw ${never.join(', ')}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
