import { describe, expect, it } from 'vitest';
import { finish } from '../report/build-report.js';
import type { ConformOptions } from '../context.js';
import { Redactor } from '../wire/redact.js';
import { htmlReport } from '../report/html.js';
import { junitReport } from '../report/junit.js';
import { trafficVerdict, verdictOf } from '../report/run-verdict.js';
import { textSummary } from '../report/text.js';
import type { CheckResult, Report } from '../types.js';

/**
 * The verdict as `finish` makes it and every format shows it: with --certify a certificate (never one for a run that
 * --only/--skip narrowed), without it the exit code's reading (PASSED or FAILED), and the selection in each format.
 */

function result(id: string, over: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `title of ${id}`,
    family: id.startsWith('auth') ? 'auth' : 'lists',
    clause: 'Authentication, point 3',
    level: 'MUST',
    outcome: 'pass',
    reason: '3 cases checked',
    evidence: [],
    failureCount: 0,
    durationMs: 5,
    ...over,
  };
}

const failed = (id: string) => result(id, { outcome: 'fail', evidence: [{ message: 'wrong' }], failureCount: 1 });

/** A check of the registry as the selection sees it. */
type RegistryEntry = Pick<CheckResult, 'id' | 'level' | 'family'>;

/** The registry's checks a selection left out: 3 MUST and 1 SHOULD of the lists family. */
const LEFT_OUT: RegistryEntry[] = [
  { id: 'lists.a', level: 'MUST', family: 'lists' },
  { id: 'lists.b', level: 'MUST', family: 'lists' },
  { id: 'lists.c', level: 'MUST', family: 'lists' },
  { id: 'lists.d.inferred', level: 'SHOULD', family: 'lists' },
];

function run(checks: CheckResult[], options: Partial<ConformOptions> = {}, notSelected: RegistryEntry[] = []) {
  const source = { options: { baseUrl: 'http://127.0.0.1:1', ...options }, redactor: new Redactor(), mockAdmin: false };
  return finish({ ...source, notes: [] }, checks, Date.now(), 'opsapi conform', {
    only: options.only ?? [],
    skip: options.skip ?? [],
    notSelected,
  });
}

/** Every format of a report, as text. */
function formats(report: Report): { json: Report; text: string; html: string; xml: string } {
  return {
    json: JSON.parse(JSON.stringify(report)) as Report,
    text: textSummary(report, false),
    html: htmlReport(report),
    xml: junitReport(report),
  };
}

describe('--certify with --only/--skip', () => {
  const checks = [result('auth.401-no-code'), result('auth.401-type')];

  it('is never CERTIFIED: the verdict names the MUST checks not selected, and the run exits 1', () => {
    const report = run(checks, { certify: true, only: ['auth'] }, LEFT_OUT);
    const { json, text, html, xml } = formats(report);
    expect(report.certified).toBe(false);
    expect(report.exitCode).toBe(1);
    expect(report.exitReasons).toContain('--certify: 3 MUST check(s) not selected by --only/--skip');
    expect(json.verdict).toEqual({
      label: 'NOT CERTIFIED',
      text: 'NOT CERTIFIED: 3 MUST checks were not selected',
      because: ['3 MUST checks were not selected'],
    });
    // No class of a narrowed run is certified either: "CERTIFIED" shows nowhere but in "NOT CERTIFIED".
    expect(json.families.map((f) => [f.family, f.certified])).toEqual([['auth', false]]);
    expect(text).toContain('certification: NOT CERTIFIED: 3 MUST checks were not selected');
    for (const format of [text, html, xml]) expect(format.replaceAll('NOT CERTIFIED', '')).not.toContain('CERTIFIED');
    expect(html).toContain('<span class="class-ok">PASSED</span>');
    expect(html).toContain('id="verdict">NOT CERTIFIED<');
    expect(html).toContain('<span class="verdict ko"');
    expect(xml).toContain('<property name="verdict" value="NOT CERTIFIED: 3 MUST checks were not selected"/>');
  });

  it('shows the selection in every format', () => {
    const report = run(checks, { certify: true, only: ['auth'], skip: ['auth.401-problem'] }, LEFT_OUT);
    const { json, text, html, xml } = formats(report);
    expect(json.selection).toEqual({
      only: ['auth'],
      skip: ['auth.401-problem'],
      registry: { MUST: 5, SHOULD: 1 },
      notSelected: { MUST: 3, SHOULD: 1 },
      mustNotSelected: ['lists.a', 'lists.b', 'lists.c'],
    });
    const line = '--only auth --skip auth.401-problem: 3 of 5 MUST and 1 of 1 SHOULD checks not selected';
    expect(text).toContain(`  selection: ${line}`);
    expect(html).toContain(`<dd id="selection">${line}</dd>`);
    expect(xml).toContain('<property name="only" value="auth"/><property name="skip" value="auth.401-problem"/>');
    expect(xml).toContain('<property name="mustNotSelected" value="3"/>');
  });

  it('is not certified when only SHOULD checks were left out either', () => {
    const report = run(checks, { certify: true, skip: ['lists.d'] }, [LEFT_OUT[3] as RegistryEntry]);
    expect(report.verdict?.text).toBe('NOT CERTIFIED: 1 SHOULD check was not selected');
    expect(report.exitCode).toBe(1);
  });

  it('stays CERTIFIED for the whole registry, the selection saying so', () => {
    const report = run(checks, { certify: true });
    expect(report.verdict?.text).toBe('CERTIFIED: every MUST check ran and passed');
    expect(textSummary(report, false)).toContain('  selection: every check of the registry (2 MUST, 0 SHOULD)');
    expect(htmlReport(report)).toContain('id="verdict">CERTIFIED<');
  });
});

describe('the verdict without --certify reads as the exit code', () => {
  it('PASSED (exit 0): how much ran and what was not selected, a green badge', () => {
    const report = run(
      [result('auth.401-type'), result('lists.x', { outcome: 'skip', reason: 'writes are off' })],
      { only: ['auth', 'lists.x'] },
      LEFT_OUT,
    );
    const { json, text, html, xml } = formats(report);
    expect(report.exitCode).toBe(0);
    expect(json.verdict?.label).toBe('PASSED');
    expect(json.verdict?.text).toBe(
      'PASSED: no MUST check failed or errored; 1 of 2 MUST checks ran; 3 MUST checks were not selected',
    );
    expect(text).toContain(`  verdict: ${json.verdict?.text}`);
    expect(text).not.toContain('CERTIFIED');
    expect(html).toContain('<span class="verdict ok" id="verdict">PASSED</span>');
    expect(html).not.toContain('NOT CERTIFIED');
    expect(xml).toContain(`<property name="verdict" value="${json.verdict?.text}"/>`);
  });

  it('FAILED (exit 1): the MUST checks that failed, a red badge', () => {
    const report = run([failed('auth.401-type'), failed('auth.401-no-code'), result('auth.401-problem')]);
    const { json, text, html } = formats(report);
    expect(report.exitCode).toBe(1);
    expect(json.verdict?.text).toBe('FAILED: 2 MUST checks failed: auth.401-type, auth.401-no-code');
    expect(text).toContain('  verdict: FAILED: 2 MUST checks failed');
    expect(html).toContain('<span class="verdict ko" id="verdict">FAILED</span>');
    expect(html).toContain('<span class="class-ko">FAILED</span>');
  });

  it('FAILED for a run that skipped most of its MUST checks', () => {
    const skipped = ['lists.p', 'lists.q'].map((id) => result(id, { outcome: 'skip', reason: 'writes are off' }));
    const report = run([result('auth.401-type'), ...skipped]);
    expect(report.verdict?.text).toBe(
      'FAILED: only 1 of 3 MUST checks ran (2 skipped, more than half; --allow-skips accepts that)',
    );
  });

  it('a JSON report of an older version (no verdict field) gets the same verdict', () => {
    const report = run([failed('auth.401-type')]);
    const { verdict, ...older } = report;
    expect(verdictOf(older)).toEqual(verdict);
  });
});

describe('the verdict of the traffic through opsapi proxy', () => {
  const traffic = (exchanges: number): NonNullable<Report['traffic']> => ({
    exchanges,
    withViolations: 0,
    transportErrors: 0,
    judgedAgain: 0,
    operations: { total: 19, called: 1, calls: {} },
    pairs: { total: 1, met: 0, missing: [] },
    undeclared: [],
    notInContract: { count: 0, first: [] },
    recent: [],
  });

  it('PASSED: no MUST violation in N exchanges; FAILED names the rules violated', () => {
    const clean = { ...run([result('auth.401-no-code')], { allowSkips: true }), traffic: traffic(4) };
    expect(trafficVerdict(clean).text).toBe('PASSED: no MUST violation in 4 exchanges');
    const bad = { ...run([failed('auth.401-no-code')], { allowSkips: true }), traffic: traffic(2) };
    const verdict = trafficVerdict(bad);
    expect(verdict.text).toBe('FAILED: 1 MUST rule violated in 2 exchanges: auth.401-no-code (1 violation)');
    expect(htmlReport({ ...bad, verdict })).toContain('id="verdict">FAILED<');
  });
});
