import { evidenceLines } from './evidence.js';
import type { CheckReport, CheckResult, ReportFamily, Verdict } from './types.js';
import { exitZeroLine, infoHeading, isGood, mustRanLine, selectionLine, shownOf } from './verdict.js';

const COLOURS = { red: 31, green: 32, yellow: 33, grey: 90, bold: 1 } as const;

/** What a tool's text summary names its own way. */
interface TextStyle {
  /** The first line: the tool, its version, the contract and what was judged. */
  heading: string;
  /** The second line: when, how long, and what the run was. */
  subheading: string;
  /** The classes of checks, in report order: one block each. */
  families: readonly ReportFamily[];
  verdict: Verdict;
  /** Blocks after the failures and the information, before the summary: a title and its lines. */
  sections?: readonly { title: string; lines: readonly string[] }[];
}

/**
 * The grouped summary a command prints on stdout (`opsapi conform`, `opsapi client-checks`), in the wording every
 * report shares (verdict.ts); colours only when asked (a TTY).
 */
export function textReport(report: CheckReport, style: TextStyle, colour: boolean): string {
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
  lines.push(paint('bold', style.heading));
  lines.push(style.subheading);
  for (const family of style.families) {
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
  for (const section of style.sections ?? []) {
    lines.push('', paint('bold', section.title));
    for (const line of section.lines) lines.push(`  ${line}`);
  }
  const c = report.counts;
  const verdict = style.verdict;
  const selection = selectionLine(report);
  // "certification:" when a certificate was asked for, else "verdict:", which reads as the exit code does.
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
