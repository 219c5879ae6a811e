import { htmlPage, escapeHtml as h } from '../../common/report/html.js';
import { junitXml } from '../../common/report/junit.js';
import { redactOptions } from '../../common/report/redaction.js';
import type { CheckReport, Verdict } from '../../common/report/types.js';
import {
  certificationReasons,
  countOutcomes,
  everyMustPassed,
  idList,
  makeVerdict,
  mustTally,
  passedBecause,
} from '../../common/report/verdict.js';
import { VERSION } from '../../common/version.js';
import { CONTRACT_VERSION } from '../../spec/build.js';
import { CLIENT_FAMILIES, type ClientFamily, NOT_OBSERVABLE, type NotObservable } from './checks.js';
import { judgeAll } from './judges/index.js';
import { pendingOf } from './pending.js';
import type { JudgeOptions, Overflow, Perturbation, Trace } from './trace.js';

/** How a run of client checks goes: `observe` only watches; `certify` also perturbs (injected 429s, deliveries). */
export type ClientProfile = 'observe' | 'certify';

/** What a report of client checks is built from beside the trace. */
export interface ClientRun {
  profile: ClientProfile;
  seed: number;
  /** When the checks started (epoch ms). */
  startedAt: number;
  /** What was judged, as the report names it (the tenant and the mock's address). */
  target: string;
  options: JudgeOptions;
}

/** The report of client checks: the runner's report fields, and what only a run over a client's traffic has. */
export interface ClientReport extends CheckReport<ClientFamily> {
  profile: ClientProfile;
  seed: number;
  /** Observations the checks still wait for: a verdict may change until there is none. */
  pending: { kind: string; seq: number; what: string; until?: string }[];
  /** The perturbations applied, oldest first. */
  perturbations: (Omit<Perturbation, 'at'> & { at: string })[];
  /** Rules the reference states that no observer outside the client can judge: never passed, outside the MUST set. */
  notObservable: NotObservable[];
  /** Records dropped beyond the run's bounds, oldest first. */
  overflow: Overflow;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The verdict: under the profile certify a certificate (CERTIFIED only when every MUST check ran and passed, or why
 * not); under observe, as the exit code reads (PASSED: no MUST check failed; FAILED: one did).
 */
function clientVerdict(report: ClientReport): Verdict {
  if (report.profile === 'certify') {
    if (report.certified) return makeVerdict('CERTIFIED', ['every MUST check ran and passed']);
    const reasons = certificationReasons(report);
    return makeVerdict('NOT CERTIFIED', reasons.length ? reasons : ['see the checks']);
  }
  return report.exitCode === 0
    ? makeVerdict('PASSED', passedBecause(report))
    : makeVerdict('FAILED', report.exitReasons);
}

/** The report of a run so far (or its final one): every check judged over the trace at `now`. */
export function clientReport(trace: Trace, run: ClientRun, now: number): ClientReport {
  const checks = judgeAll(trace, run.options, now);
  const pending = pendingOf(trace, run.options, now);
  const failedMust = checks.filter((r) => r.level === 'MUST' && r.outcome === 'fail');
  const exitReasons = failedMust.length
    ? [`${failedMust.length} MUST check(s) failed: ${failedMust.map((r) => r.id).join(', ')}`]
    : [];
  const dropped = Object.entries(trace.overflow).filter(([, n]) => n > 0);
  const notes = [
    ...(pending.length ? [`${pending.length} observation(s) pending: the outcomes may still change`] : []),
    ...(dropped.length
      ? [
          `beyond the run's bounds, the oldest records were dropped: ${dropped.map(([what, n]) => `${n} ${what}`).join(', ')}`,
        ]
      : []),
  ];
  const report: ClientReport = {
    tool: { name: 'opsapi client-checks', version: VERSION },
    contractVersion: CONTRACT_VERSION,
    target: run.target,
    date: iso(run.startedAt),
    durationMs: Math.max(0, now - run.startedAt),
    options: redactOptions({ profile: run.profile, seed: run.seed, ...run.options }, new Set()),
    counts: countOutcomes(checks),
    families: CLIENT_FAMILIES.map((f) => {
      const rs = checks.filter((r) => r.family === f.id);
      return { family: f.id, title: f.title, certified: everyMustPassed(rs), counts: countOutcomes(rs) };
    }),
    checks,
    staleBaseline: [],
    certified: everyMustPassed(checks),
    ...mustTally(checks),
    exitCode: failedMust.length ? 1 : 0,
    exitReasons,
    notes,
    profile: run.profile,
    seed: run.seed,
    pending: pending.map(({ until, ...p }) => ({ ...p, ...(until !== undefined ? { until: iso(until) } : {}) })),
    perturbations: trace.perturbations.map((p) => ({ ...p, at: iso(p.at) })),
    notObservable: NOT_OBSERVABLE.map((n) => ({ ...n })),
    overflow: { ...trace.overflow },
  };
  report.verdict = clientVerdict(report);
  return report;
}

/** The report as JSON (`?format=json`, the default). */
function clientReportJson(report: ClientReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const verdictOfReport = (report: ClientReport) => report.verdict ?? clientVerdict(report);

/** The report as JUnit XML: a testsuite per class of checks, and the rules not observable as skipped testcases. */
export function clientReportJunit(report: ClientReport): string {
  return junitXml(report, {
    families: CLIENT_FAMILIES,
    classPrefix: 'opsapi.client',
    name: `opsapi client-checks ${report.target}`,
    verdict: verdictOfReport(report),
    properties: [
      ['profile', report.profile],
      ['seed', String(report.seed)],
      ['pending', String(report.pending.length)],
      ['perturbations', String(report.perturbations.length)],
    ],
    skippedSuites: [
      {
        id: 'not-observable',
        title: 'Not observable from outside',
        cases: report.notObservable.map((n) => ({ name: `${n.id} ${n.title}`, message: n.reason })),
      },
    ],
  });
}

function list<T>(items: readonly T[], item: (x: T) => string, empty: string): string {
  return items.length ? `<ul>${items.map((x) => `<li>${item(x)}</li>`).join('')}</ul>` : `<p>${empty}</p>`;
}

/** What only a report of client checks has: pending observations, perturbations, rules not observable. */
function clientSections(report: ClientReport): string {
  const pending = list(
    report.pending,
    (p) => h(`${p.what}${p.until ? ` (until ${p.until})` : ''}`),
    'Nothing pending.',
  );
  const applied = list(
    report.perturbations,
    (p) =>
      h(
        `${p.at} ${p.kind}${p.requestSeq !== undefined ? ` answering request ${p.requestSeq}` : ''}${p.eventId ? ` (event ${p.eventId}, subscription ${p.subscriptionId})` : ''}`,
      ),
    'None applied.',
  );
  const unseen = list(
    report.notObservable,
    (n) => `<code>${h(n.id)}</code> ${h(n.title)}: ${h(n.reason)}<div class="reason">${h(n.clause)}</div>`,
    'None.',
  );
  return `<section id="pending"><h2>Pending (${report.pending.length})</h2>${pending}</section>
<section id="perturbations"><h2>Perturbations (${report.perturbations.length})</h2>${applied}</section>
<section id="not-observable"><h2>Not observable from outside (${report.notObservable.length})</h2>${unseen}</section>`;
}

/** The self-contained HTML report (no external assets and no script). */
export function clientReportHtml(report: ClientReport): string {
  return htmlPage(report, {
    title: 'opsapi client certification',
    heading: 'Operations Platform API client certification report',
    classesHeading: 'Classes of checks',
    targetLabel: 'Client',
    verdict: verdictOfReport(report),
    legend: (label) =>
      `${
        label === 'PASSED' || label === 'FAILED'
          ? 'PASSED means that no MUST check (a rule the reference states for clients) failed, FAILED that one did; a certificate needs the profile certify.'
          : 'CERTIFIED means that every MUST check (a rule the reference states for clients) was exercised by the traffic and passed.'
      } SHOULD checks cover what the reference says a client should do, or a bound the contract infers. Rules not observable from outside are listed, never passed.`,
    meta: [
      ['Profile', report.profile],
      ['Seed', String(report.seed)],
      ['Pending', idList(report.pending.map((p) => `${p.kind} ${p.seq}`)) || 'nothing'],
    ],
    sections: clientSections(report),
    times: false,
  });
}

/** The report in a format of `GET /__mock/client-checks/report?format=`, with its media type. */
export function renderClientReport(
  report: ClientReport,
  format: 'json' | 'junit' | 'html',
): { contentType: string; body: string } {
  if (format === 'junit') return { contentType: 'application/xml; charset=utf-8', body: clientReportJunit(report) };
  if (format === 'html') return { contentType: 'text/html; charset=utf-8', body: clientReportHtml(report) };
  return { contentType: 'application/json; charset=utf-8', body: clientReportJson(report) };
}
