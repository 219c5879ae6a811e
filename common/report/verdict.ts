import type { CheckResult, CheckReport, Counts, Verdict } from './types.js';

type Report = CheckReport;

/**
 * The wording every report shares: why a run is or is not certified, how much of the MUST set ran, and how much of a
 * check's evidence or information a report shows. A verdict is always followed by what caused it, never by the rule
 * it failed (a "NOT CERTIFIED (no MUST check failed ...)" reads as if nothing did).
 */

/** A list of ids, the first `max` of them and how many more. */
export function idList(ids: string[], max = 6): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Failed or errored, not accepted by the baseline. */
export function isBroken(r: CheckResult): boolean {
  return (r.outcome === 'fail' || r.outcome === 'error') && !r.baselined;
}

/** Failed or errored, baselined or not: what "failures only" shows. */
export function isFailing(r: CheckResult): boolean {
  return r.outcome === 'fail' || r.outcome === 'error';
}

/** Report order of checks: failures, errors, failures the baseline accepts, skips, passes. */
function rank(r: CheckResult): number {
  if (r.outcome === 'fail') return r.baselined ? 2 : 0;
  if (r.outcome === 'error') return r.baselined ? 2 : 1;
  return r.outcome === 'skip' ? 3 : 4;
}

/** The checks, failing first (a stable sort: the registry order within each rank). */
export function failuresFirst<C extends CheckResult>(checks: readonly C[]): C[] {
  return checks
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);
}

/** Why the run is not certified (empty when it is): what failed, errored, was accepted by the baseline or skipped. */
export function certificationReasons(report: Report): string[] {
  const must = report.checks.filter((r) => r.level === 'MUST');
  const ids = (rs: CheckResult[]) => idList(rs.map((r) => r.id));
  const failed = must.filter((r) => r.outcome === 'fail' && !r.baselined);
  const errored = must.filter((r) => r.outcome === 'error' && !r.baselined);
  const accepted = must.filter((r) => r.baselined);
  const skipped = must.filter((r) => r.outcome === 'skip');
  const out: string[] = [];
  const leftOut = notSelectedLine(report);
  if (leftOut) out.push(leftOut);
  if (failed.length) out.push(`${plural(failed.length, 'MUST check', 'MUST checks')} failed: ${ids(failed)}`);
  if (errored.length) out.push(`${plural(errored.length, 'MUST check', 'MUST checks')} errored: ${ids(errored)}`);
  if (accepted.length)
    out.push(
      `${plural(accepted.length, 'MUST check', 'MUST checks')} failed and ${accepted.length === 1 ? 'is' : 'are'} accepted by the baseline: ${ids(accepted)}`,
    );
  if (skipped.length)
    out.push(`${plural(skipped.length, 'MUST check was', 'MUST checks were')} skipped: ${ids(skipped)}`);
  if (report.staleBaseline.length)
    out.push(`the baseline has stale entries (these checks now pass): ${idList(report.staleBaseline)}`);
  return out;
}

/**
 * "12 MUST checks were not selected" (or the SHOULD checks, when only those were left out): a certificate covers
 * the whole registry, so a run `--only`/`--skip` narrowed is never one. Undefined when nothing was left out.
 */
function notSelectedLine(report: Report): string | undefined {
  const s = report.selection;
  if (!s) return undefined;
  if (s.notSelected.MUST > 0) return `${plural(s.notSelected.MUST, 'MUST check was', 'MUST checks were')} not selected`;
  if (s.notSelected.SHOULD > 0)
    return `${plural(s.notSelected.SHOULD, 'SHOULD check was', 'SHOULD checks were')} not selected`;
  return undefined;
}

/** "--only auth --skip auth.401-type: 59 of 66 MUST and 80 of 95 SHOULD checks not selected", or the whole registry. */
export function selectionLine(report: Report): string | undefined {
  const s = report.selection;
  if (!s) return undefined;
  const flags = [
    ...(s.only.length ? [`--only ${s.only.join(',')}`] : []),
    ...(s.skip.length ? [`--skip ${s.skip.join(',')}`] : []),
  ].join(' ');
  const { MUST, SHOULD } = s.notSelected;
  if (MUST + SHOULD === 0)
    return `${flags ? `${flags}: ` : ''}every check of the registry (${s.registry.MUST} MUST, ${s.registry.SHOULD} SHOULD)`;
  return `${flags}: ${MUST} of ${s.registry.MUST} MUST and ${SHOULD} of ${s.registry.SHOULD} SHOULD checks not selected`;
}

/** "41 of 60 MUST checks ran". */
export function mustRanLine(report: Report): string {
  const total = report.mustTotal ?? report.checks.filter((r) => r.level === 'MUST').length;
  const ran = report.mustRan ?? report.checks.filter((r) => r.level === 'MUST' && r.outcome !== 'skip').length;
  return `${ran} of ${total} MUST checks ran`;
}

/** Why the exit code is 0, said without claiming more than is true. */
export function exitZeroLine(report: Report): string {
  const accepted = report.checks.filter((r) => r.level === 'MUST' && r.baselined).length;
  const skipped = report.checks.filter((r) => r.level === 'MUST' && r.outcome === 'skip').length;
  const extras = [
    ...(accepted ? [`${plural(accepted, 'MUST failure', 'MUST failures')} accepted by the baseline`] : []),
    ...(skipped ? [`${mustRanLine(report)}`] : []),
  ];
  return `no MUST check failed or errored${accepted ? ' outside the baseline' : ''}${extras.length ? ` (${extras.join('; ')})` : ''}`;
}

/** "8 of 229 shown" when a report keeps fewer than there are, else undefined. */
export function shownOf(kept: number, total: number): string | undefined {
  return kept < total ? `${kept} of ${total} shown` : undefined;
}

/** "229 failures (8 of 229 shown)" or "3 failures". */
export function failureHeading(r: CheckResult, kept = r.evidence.length): string {
  const shown = shownOf(Math.min(kept, r.evidence.length), r.failureCount);
  return `${plural(r.failureCount, 'failure', 'failures')}${r.baselined ? ', accepted by the baseline' : ''}${shown ? ` (${shown})` : ''}`;
}

/** "Information (20 of 57 shown)" or "Information (3)". */
export function infoHeading(r: CheckResult): string {
  const kept = r.info?.length ?? 0;
  const total = Math.max(kept, r.infoCount ?? kept);
  return `Information (${shownOf(kept, total) ?? String(total)})`;
}

/** A check's own duration: "120 ms" or "1.24 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A verdict: its label and the causes that follow it. */
export function makeVerdict(label: Verdict['label'], because: string[]): Verdict {
  return { label, text: `${label}: ${because.join('; ')}`, because };
}

/** Whether a verdict is a good one (the colour of its badge). */
export function isGood(v: Verdict): boolean {
  return v.label === 'CERTIFIED' || v.label === 'PASSED';
}

/** Exit 0: what held, how much of the MUST set ran, what the selection left out and the SHOULD checks that failed. */
export function passedBecause(report: Report): string[] {
  const accepted = report.checks.filter((r) => r.level === 'MUST' && r.baselined).length;
  const should = report.checks.filter((r) => r.level === 'SHOULD' && isBroken(r));
  const leftOut = notSelectedLine(report);
  return [
    `no MUST check failed or errored${accepted ? ` outside the baseline (${plural(accepted, 'MUST failure', 'MUST failures')} accepted by it)` : ''}`,
    mustRanLine(report),
    ...(leftOut ? [leftOut] : []),
    ...(should.length
      ? [
          `${plural(should.length, 'SHOULD check', 'SHOULD checks')} failed or errored (not gating without --strict): ${idList(should.map((r) => r.id))}`,
        ]
      : []),
  ];
}

function emptyCounts(): Counts {
  const z = () => ({ MUST: 0, SHOULD: 0, total: 0 });
  return { pass: z(), fail: z(), skip: z(), error: z() };
}

/** The outcomes of some checks, per level. */
export function countOutcomes(results: readonly Pick<CheckResult, 'outcome' | 'level'>[]): Counts {
  const counts = emptyCounts();
  for (const r of results) {
    counts[r.outcome][r.level]++;
    counts[r.outcome].total++;
  }
  return counts;
}

/** The rule of every certificate: every MUST check ran and passed (a skip, a failure or an error is none). */
export function everyMustPassed(results: readonly Pick<CheckResult, 'outcome' | 'level'>[]): boolean {
  return !results.some((r) => r.level === 'MUST' && r.outcome !== 'pass');
}

/** How many MUST checks there are, and how many of them ran (passed, failed or errored: not skipped). */
export function mustTally(results: readonly Pick<CheckResult, 'outcome' | 'level'>[]): {
  mustRan: number;
  mustTotal: number;
} {
  const must = results.filter((r) => r.level === 'MUST');
  return { mustRan: must.filter((r) => r.outcome !== 'skip').length, mustTotal: must.length };
}
