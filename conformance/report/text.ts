import { evidenceLines } from '../../common/report/evidence.js';
import type { CheckResult, Report } from '../types.js';
import { FAMILIES } from '../types.js';
import { exitZeroLine, infoHeading, isGood, mustRanLine, selectionLine, shownOf } from '../../common/report/verdict.js';
import { verdictOf } from './run-verdict.js';

const COLOURS = { red: 31, green: 32, yellow: 33, grey: 90, bold: 1 } as const;

/** The grouped summary printed on stdout; colours only when asked (a TTY). */
export function textSummary(report: Report, colour: boolean): string {
  const paint = (c: keyof typeof COLOURS, s: string) => (colour ? `\u001b[${COLOURS[c]}m${s}\u001b[0m` : s);
  const mark = (r: CheckResult) =>
    r.outcome === 'pass'
      ? paint('green', 'PASS ')
      : r.outcome === 'fail'
        ? paint(r.baselined ? 'yellow' : 'red', r.baselined ? 'KNOWN' : 'FAIL ')
        : r.outcome === 'error'
          ? paint('red', 'ERROR')
          : paint('grey', 'SKIP ');
  const lines: string[] = [];
  lines.push(
    paint(
      'bold',
      `opsapi conform ${report.tool.version} (contract ${report.contractVersion}) against ${report.target}`,
    ),
  );
  lines.push(
    `${report.date}, ${(report.durationMs / 1000).toFixed(1)} s${report.mockAdmin ? ', mock admin API used (fresh tenant)' : ''}`,
  );
  for (const family of FAMILIES) {
    const checks = report.checks.filter((r) => r.family === family.id);
    if (checks.length === 0) continue;
    lines.push('', paint('bold', `${family.title} (${family.id})`));
    for (const r of checks) {
      const why = r.outcome === 'skip' || r.outcome === 'error' ? paint('grey', ` - ${r.reason ?? ''}`) : '';
      lines.push(`  ${mark(r)} ${r.level.padEnd(6)} ${r.id}${why}`);
    }
  }
  const failures = report.checks.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  if (failures.length) {
    lines.push('', paint('bold', 'Failures'));
    for (const r of failures) {
      lines.push(
        '',
        `${r.outcome === 'fail' ? paint('red', 'FAIL') : paint('red', 'ERROR')} ${r.level} ${r.id}${r.baselined ? ' (baselined)' : ''}: ${r.title}`,
        `  clause: ${r.clause}`,
      );
      if (r.outcome === 'error') lines.push(`  ${r.reason ?? ''}`);
      for (const e of r.evidence.slice(0, 3)) lines.push(...evidenceLines(e).map((l) => `  ${l}`));
      const shown = shownOf(Math.min(3, r.evidence.length), r.failureCount);
      if (shown)
        lines.push(
          `  ${shown}${r.evidence.length > 3 ? `; the reports keep ${r.evidence.length}` : ''} (see --report)`,
        );
    }
  }
  // Neither a pass nor a failure: e.g. response fields the contract does not name ("Other SKU fields: not shown").
  const informed = report.checks.filter((r) => (r.info?.length ?? 0) > 0);
  if (informed.length) {
    lines.push('', paint('bold', 'Information'));
    for (const r of informed) {
      lines.push('', `${paint('grey', 'INFO')} ${r.id}: ${infoHeading(r)}`);
      for (const line of r.info ?? []) lines.push(`  - ${line}`);
    }
  }
  const c = report.counts;
  const verdict = verdictOf(report);
  const selection = selectionLine(report);
  // "certification:" when --certify asked for one (as before), else "verdict:", which reads as the exit code does.
  const certifying = verdict.label === 'CERTIFIED' || verdict.label === 'NOT CERTIFIED';
  lines.push(
    '',
    paint('bold', 'Summary'),
    `  pass  ${c.pass.total} (MUST ${c.pass.MUST}, SHOULD ${c.pass.SHOULD})`,
    `  fail  ${c.fail.total} (MUST ${c.fail.MUST}, SHOULD ${c.fail.SHOULD})`,
    `  error ${c.error.total} (MUST ${c.error.MUST}, SHOULD ${c.error.SHOULD})`,
    `  skip  ${c.skip.total} (MUST ${c.skip.MUST}, SHOULD ${c.skip.SHOULD})`,
    `  ${mustRanLine(report)}`,
    ...(selection ? [`  selection: ${selection}`] : []),
    `  ${certifying ? 'certification' : 'verdict'}: ${paint(isGood(verdict) ? 'green' : 'red', verdict.label)}: ${verdict.because.join('; ')}`,
  );
  for (const n of report.notes) lines.push(`  note: ${n}`);
  for (const reason of report.exitReasons) lines.push(paint('red', `  exit 1: ${reason}`));
  if (report.exitCode === 0) lines.push(paint('green', `  exit 0: ${exitZeroLine(report)}`));
  return `${lines.join('\n')}\n`;
}
