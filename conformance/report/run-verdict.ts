import {
  certificationReasons,
  idList,
  isBroken,
  makeVerdict,
  mustRanLine,
  passedBecause,
} from '../../common/report/verdict.js';
import type { CheckResult, Report, Verdict } from '../types.js';

/**
 * The one verdict every format of a report shows (JSON `verdict`, text, HTML, JUnit), so none can read otherwise than
 * the others or the exit code. With `--certify` it is the certificate's (CERTIFIED or NOT CERTIFIED and why); without
 * it, it reads as the exit code does (PASSED: exit 0, FAILED: exit 1): a run that was not asked to certify is not
 * "NOT CERTIFIED" in red when it passed.
 */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const verdict = makeVerdict;

const ids = (rs: CheckResult[]) => idList(rs.map((r) => r.id));

/** The verdict a report carries, or, for a report of an older version read back, the one worked out from it. */
export function verdictOf(report: Report): Verdict {
  return report.verdict ?? (report.traffic ? trafficVerdict(report) : runVerdict(report));
}

/** Exit 1: each cause, as `finish` found it (the exit reasons, when none of these explains it). */
function failedBecause(report: Report): string[] {
  const must = report.checks.filter((r) => r.level === 'MUST' && !r.baselined);
  const failed = must.filter((r) => r.outcome === 'fail');
  const errored = must.filter((r) => r.outcome === 'error');
  const out: string[] = [];
  if (failed.length) out.push(`${plural(failed.length, 'MUST check', 'MUST checks')} failed: ${ids(failed)}`);
  if (errored.length) out.push(`${plural(errored.length, 'MUST check', 'MUST checks')} errored: ${ids(errored)}`);
  const skipped = report.mustTotal - report.mustRan;
  if (skipped * 2 > report.mustTotal && report.options.allowSkips !== true)
    out.push(`only ${mustRanLine(report)} (${skipped} skipped, more than half; --allow-skips accepts that)`);
  const should = report.checks.filter((r) => r.level === 'SHOULD' && isBroken(r));
  if (report.options.strict === true && should.length)
    out.push(`--strict: ${plural(should.length, 'SHOULD check', 'SHOULD checks')} failed or errored: ${ids(should)}`);
  if (report.staleBaseline.length)
    out.push(`the baseline has stale entries (these checks now pass): ${idList(report.staleBaseline)}`);
  return out.length ? out : report.exitReasons;
}

/** The verdict of a run of `opsapi conform`. */
export function runVerdict(report: Report): Verdict {
  if (report.options.certify === true) {
    if (report.certified) return verdict('CERTIFIED', ['every MUST check ran and passed']);
    const reasons = certificationReasons(report);
    return verdict('NOT CERTIFIED', reasons.length ? reasons : ['see the checks']);
  }
  return report.exitCode === 0 ? verdict('PASSED', passedBecause(report)) : verdict('FAILED', failedBecause(report));
}

/** The verdict of the traffic through `opsapi proxy`: a MUST rule violated by an exchange, or none. */
export function trafficVerdict(report: Report): Verdict {
  const exchanges = plural(report.traffic?.exchanges ?? 0, 'exchange', 'exchanges');
  const violated = report.checks.filter((r) => r.level === 'MUST' && r.outcome === 'fail');
  if (violated.length === 0 && report.exitCode === 0) return verdict('PASSED', [`no MUST violation in ${exchanges}`]);
  return verdict('FAILED', [
    `${plural(violated.length, 'MUST rule', 'MUST rules')} violated in ${exchanges}: ${idList(violated.map((r) => `${r.id} (${plural(r.failureCount, 'violation', 'violations')})`))}`,
  ]);
}
