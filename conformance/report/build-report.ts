import { CONTRACT_VERSION } from '../../spec/build.js';
import { redactOptions } from '../../common/report/redaction.js';
import { countOutcomes as count, everyMustPassed } from '../../common/report/verdict.js';
import { VERSION } from '../../common/version.js';
import type { ConformOptions, RunContext } from '../context.js';
import { runVerdict } from './run-verdict.js';
import { FAMILIES, type CheckResult, type Family, type Level, type Report, type Selection } from '../types.js';

/** The options as the report shows them: credentials and header values redacted, callbacks left out. */
function shownOptions(options: ConformOptions): Record<string, unknown> {
  const secret = new Set([
    'token',
    'limitedToken',
    'apiKey',
    'otherTenantToken',
    'webhookSecret',
    'tokenCommand',
    'adminKey',
    'teamKey',
  ]);
  return redactOptions(options, secret);
}

/** What a report is built from: the run's options, its redactor and remarks (a proxy passes its own). */
type ReportSource = Pick<RunContext, 'redactor' | 'mockAdmin' | 'notes'> & { options: ConformOptions };

/** A check of the registry as the selection sees it. */
interface RegistryEntry {
  id: string;
  level: Level;
  family: Family;
}

/** What `--only`/`--skip` chose: the flags as given, and the checks of the registry they left out. */
interface SelectionSource {
  only: string[];
  skip: string[];
  notSelected: RegistryEntry[];
}

function selectionOf(source: SelectionSource, checks: CheckResult[]): Selection {
  const count = (rs: { level: Level }[], level: Level) => rs.filter((r) => r.level === level).length;
  const left = source.notSelected;
  return {
    only: [...source.only],
    skip: [...source.skip],
    registry: {
      MUST: count(checks, 'MUST') + count(left, 'MUST'),
      SHOULD: count(checks, 'SHOULD') + count(left, 'SHOULD'),
    },
    notSelected: { MUST: count(left, 'MUST'), SHOULD: count(left, 'SHOULD') },
    mustNotSelected: left.filter((r) => r.level === 'MUST').map((r) => r.id),
  };
}

/**
 * The report of a run: baseline applied, counts per family, certification and the exit code with its reasons, the
 * selection (`opsapi conform` passes it; the proxy's rules are never selected) and the verdict every format shows.
 */
export function finish(
  run: ReportSource,
  checks: CheckResult[],
  started: number,
  tool = 'opsapi conform',
  selection?: SelectionSource,
): Report {
  const baseline = new Set(run.options.baseline ?? []);
  const stale: string[] = [];
  for (const r of checks) {
    if (!baseline.has(r.id)) continue;
    if (r.outcome === 'fail' || r.outcome === 'error') r.baselined = true;
    else if (r.outcome === 'pass') stale.push(r.id);
  }
  const counted = checks.filter((r) => !r.baselined);
  const mustBroken = counted.filter((r) => r.level === 'MUST' && (r.outcome === 'fail' || r.outcome === 'error'));
  const shouldBroken = counted.filter((r) => r.level === 'SHOULD' && (r.outcome === 'fail' || r.outcome === 'error'));
  const mustSkipped = checks.filter((r) => r.level === 'MUST' && r.outcome === 'skip');
  const mustTotal = checks.filter((r) => r.level === 'MUST').length;
  const mustRan = mustTotal - mustSkipped.length;
  const reasons: string[] = [];
  if (mustBroken.length)
    reasons.push(`${mustBroken.length} MUST check(s) failed or errored: ${mustBroken.map((r) => r.id).join(', ')}`);
  // Inferred: a run that skipped most of what it was asked to prove proves little; a gate must not pass on it.
  if (mustSkipped.length * 2 > mustTotal && !run.options.allowSkips) {
    reasons.push(
      `only ${mustRan} of ${mustTotal} MUST checks ran (${mustSkipped.length} skipped, more than half): give what the skip reasons name, or pass --allow-skips`,
    );
  }
  if (run.options.strict && shouldBroken.length)
    reasons.push(
      `--strict: ${shouldBroken.length} SHOULD check(s) failed or errored: ${shouldBroken.map((r) => r.id).join(', ')}`,
    );
  const notSelected = selection?.notSelected ?? [];
  // A certificate covers the registry: a run narrowed by --only/--skip is never one, and a gate asked to certify fails.
  if (run.options.certify && notSelected.length) {
    const must = notSelected.filter((r) => r.level === 'MUST').length;
    reasons.push(
      must
        ? `--certify: ${must} MUST check(s) not selected by --only/--skip`
        : `--certify: ${notSelected.length} SHOULD check(s) not selected by --only/--skip`,
    );
  }
  if (run.options.certify && mustSkipped.length)
    reasons.push(`--certify: ${mustSkipped.length} MUST check(s) skipped: ${mustSkipped.map((r) => r.id).join(', ')}`);
  if (stale.length) reasons.push(`stale baseline entries (these checks now pass): ${stale.join(', ')}`);
  const notCertified = (rs: CheckResult[]) => !everyMustPassed(rs);
  const families = FAMILIES.filter((f) => checks.some((r) => r.family === f.id)).map((f) => {
    const rs = checks.filter((r) => r.family === f.id);
    // A run --only/--skip narrowed is no certificate: none of its classes is certified either.
    return {
      family: f.id,
      title: f.title,
      certified: notSelected.length === 0 && !notCertified(rs),
      counts: count(rs),
    };
  });
  const report: Report = {
    tool: { name: tool, version: VERSION },
    contractVersion: CONTRACT_VERSION,
    target: run.redactor.text(run.options.baseUrl),
    date: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    options: shownOptions(run.options),
    mockAdmin: run.mockAdmin,
    counts: count(checks),
    families,
    checks,
    staleBaseline: stale,
    certified: !notCertified(checks) && stale.length === 0 && notSelected.length === 0,
    ...(selection ? { selection: selectionOf(selection, checks) } : {}),
    mustRan,
    mustTotal,
    exitCode: reasons.length ? 1 : 0,
    exitReasons: reasons,
    notes: run.notes.map((n) => run.redactor.text(n)),
  };
  report.verdict = runVerdict(report);
  return report;
}
