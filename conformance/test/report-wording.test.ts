import { describe, expect, it } from 'vitest';
import { htmlReport } from '../report/html.js';
import { junitReport } from '../report/junit.js';
import { textSummary } from '../report/text.js';
import { runVerdict } from '../report/run-verdict.js';
import { exitZeroLine, failuresFirst } from '../../common/report/verdict.js';
import type { Counts } from '../../common/report/types.js';
import type { CheckResult, Report } from '../types.js';

/** The verdict of the run under `--certify`: "CERTIFIED: ..." or "NOT CERTIFIED: ..." with the causes. */
const certificationLine = (r: Report) => runVerdict({ ...r, options: { ...r.options, certify: true } }).text;

/** A check result as the runner makes them (the fields a test does not name take their pass values). */
function result(id: string, over: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `title of ${id}`,
    family: 'lists',
    clause: 'Endpoints / List and search endpoints',
    level: 'MUST',
    outcome: 'pass',
    reason: '3 cases checked',
    evidence: [],
    failureCount: 0,
    durationMs: 12,
    ...over,
  };
}

function failure(n: number): CheckResult['evidence'] {
  return Array.from({ length: n }, (_, i) => ({ message: `failure number ${i + 1}` }));
}

/** A report as `runConformance` finishes it (counts, certification and MUST totals derived from the checks). */
function report(checks: CheckResult[], over: Partial<Report> = {}): Report {
  const counts = Object.fromEntries(
    (['pass', 'fail', 'skip', 'error'] as const).map((o) => [o, { MUST: 0, SHOULD: 0, total: 0 }]),
  ) as Counts;
  for (const r of checks) {
    counts[r.outcome][r.level]++;
    counts[r.outcome].total++;
  }
  const must = checks.filter((r) => r.level === 'MUST');
  return {
    tool: { name: 'opsapi conform', version: '0.0.0' },
    contractVersion: '1.0.0',
    target: 'http://127.0.0.1:1',
    date: '2025-01-01T00:00:00.000Z',
    durationMs: 1000,
    options: {},
    mockAdmin: false,
    counts,
    families: [
      {
        family: 'lists',
        title: 'Lists: paging and sorting',
        certified: must.every((r) => r.outcome === 'pass'),
        counts,
      },
    ],
    checks,
    staleBaseline: [],
    certified: must.every((r) => r.outcome === 'pass'),
    mustRan: must.filter((r) => r.outcome !== 'skip').length,
    mustTotal: must.length,
    exitCode: 0,
    exitReasons: [],
    notes: [],
    ...over,
  };
}

describe('the wording of the verdict', () => {
  it('says what a CERTIFIED run proved', () => {
    const r = report([result('lists.defaults')], { options: { certify: true } });
    expect(certificationLine(r)).toBe('CERTIFIED: every MUST check ran and passed');
    expect(textSummary(r, false)).toContain('certification: CERTIFIED: every MUST check ran and passed');
    expect(textSummary(r, false)).toContain('1 of 1 MUST checks ran');
  });

  it('follows NOT CERTIFIED by what was skipped, never by "no MUST check failed"', () => {
    const r = report([
      result('lists.defaults'),
      result('lists.page-size-max', { outcome: 'skip', reason: 'writes are off' }),
    ]);
    const text = textSummary(r, false);
    expect(certificationLine(r)).toBe('NOT CERTIFIED: 1 MUST check was skipped: lists.page-size-max');
    expect(text).not.toMatch(/NOT CERTIFIED[^\n]*(no MUST check|nothing)/);
    expect(text).toContain('exit 0: no MUST check failed or errored (1 of 2 MUST checks ran)');
  });

  it('says a baselined failure is accepted by the baseline', () => {
    const r = report([
      result('lists.defaults', { outcome: 'fail', baselined: true, evidence: failure(1), failureCount: 1 }),
    ]);
    expect(certificationLine(r)).toBe(
      'NOT CERTIFIED: 1 MUST check failed and is accepted by the baseline: lists.defaults',
    );
    expect(exitZeroLine(r)).toBe(
      'no MUST check failed or errored outside the baseline (1 MUST failure accepted by the baseline)',
    );
    expect(htmlReport(r)).toContain('1 failure, accepted by the baseline');
    expect(junitReport(r)).toContain('1 failure, accepted by the baseline; clause:');
  });

  it('says how much capped evidence the console and the reports show', () => {
    const r = report([result('lists.defaults', { outcome: 'fail', evidence: failure(8), failureCount: 229 })], {
      exitCode: 1,
      exitReasons: ['1 MUST check(s) failed or errored: lists.defaults'],
    });
    expect(textSummary(r, false)).toContain('3 of 229 shown; the reports keep 8');
    expect(htmlReport(r)).toContain('229 failures (8 of 229 shown)');
    expect(junitReport(r)).toContain('229 failures (8 of 229 shown)');
    expect(certificationLine(r)).toBe('NOT CERTIFIED: 1 MUST check failed: lists.defaults');
  });

  it('escapes the JUnit report, dropping characters XML 1.0 cannot carry', () => {
    const evidence = [{ message: '<a b="c">&\u0001\'' }];
    const r = report([result('lists.defaults', { outcome: 'fail', evidence, failureCount: 1 })]);
    expect(junitReport(r)).toContain('&lt;a b=&quot;c&quot;&gt;&amp;&apos;');
  });

  it('names a few skipped ids and counts the rest', () => {
    const skipped = Array.from({ length: 9 }, (_, i) => result(`lists.skip-${i}`, { outcome: 'skip' }));
    expect(certificationLine(report(skipped))).toBe(
      'NOT CERTIFIED: 9 MUST checks were skipped: lists.skip-0, lists.skip-1, lists.skip-2, lists.skip-3, lists.skip-4, lists.skip-5 and 3 more',
    );
  });
});

describe('the order and the parts of the HTML report', () => {
  const checks = [
    result('lists.a-pass'),
    result('lists.b-skip', { outcome: 'skip', reason: 'writes are off' }),
    result('lists.c-baselined', { outcome: 'fail', baselined: true, evidence: failure(1), failureCount: 1 }),
    result('lists.d-error', { outcome: 'error', reason: 'GET /x: no answer within 100 ms' }),
    result('lists.e-fail', { outcome: 'fail', evidence: failure(2), failureCount: 2, durationMs: 1500 }),
    result('lists.f-info', {
      level: 'SHOULD',
      info: Array.from({ length: 20 }, (_, i) => `listSkus: results[0].extra${i}`),
      infoCount: 57,
    }),
  ];
  const html = htmlReport(report(checks, { exitCode: 1 }));

  it('orders checks failures, errors, baselined failures, skips, passes (registry order within each)', () => {
    expect(failuresFirst(checks).map((r) => r.id)).toEqual([
      'lists.e-fail',
      'lists.d-error',
      'lists.c-baselined',
      'lists.b-skip',
      'lists.a-pass',
      'lists.f-info',
    ]);
    const rows = [...html.matchAll(/<tr class="check [^"]*" id="check-([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual([
      'lists.e-fail',
      'lists.d-error',
      'lists.c-baselined',
      'lists.b-skip',
      'lists.a-pass',
      'lists.f-info',
    ]);
  });

  it('links each failing check at the top to its row', () => {
    const nav = html.slice(html.indexOf('<nav class="failing"'), html.indexOf('</nav>'));
    expect([...nav.matchAll(/href="#(check-[^"]+)"/g)].map((m) => m[1])).toEqual([
      'check-lists.e-fail',
      'check-lists.d-error',
      'check-lists.c-baselined',
    ]);
    expect(html.indexOf('<nav class="failing"')).toBeLessThan(html.indexOf('<h2>Conformance classes</h2>'));
  });

  it('shows each check its own time and its information, "N of M shown"', () => {
    expect(html).toContain('<td class="time">1.50 s</td>');
    expect(html).toContain('<td class="time">12 ms</td>');
    expect(html).toContain('Information (20 of 57 shown)');
    expect(html).toContain('listSkus: results[0].extra19');
  });

  it('has a failures-only toggle and stays self-contained: no script, no external reference', () => {
    expect(html).toContain('<input type="checkbox" id="failures-only">');
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });

  it('puts information into the JUnit system-out', () => {
    const xml = junitReport(report(checks));
    expect(xml).toContain('<system-out>3 cases checked\nInformation (20 of 57 shown):\n- listSkus: results[0].extra0');
  });
});
