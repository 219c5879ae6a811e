import { evidenceLines } from './evidence.js';
import type { CheckReport, ReportFamily, Verdict } from './types.js';
import { failureHeading, infoHeading } from './verdict.js';

/** Escapes text for XML attributes and content, dropping characters XML 1.0 cannot carry. */
function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 allows only these characters; the rest are dropped
      .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Entries of a report that are neither run nor judged (rules that cannot be seen from outside): skipped testcases. */
interface SkippedSuite {
  id: string;
  title: string;
  cases: { name: string; message: string }[];
}

/** What a tool's JUnit report names its own way. */
interface JunitStyle {
  /** The classes of checks, in report order: one testsuite each. */
  families: readonly ReportFamily[];
  /** `opsapi.conform`: a testcase's classname is `<prefix>.<family>`. */
  classPrefix: string;
  /** The name of `<testsuites>`. */
  name: string;
  verdict: Verdict;
  /** Properties of the run beside the verdict and the selection. */
  properties?: readonly (readonly [string, string])[];
  /** Suites after the checks' own, every case skipped (counted in the totals). */
  skippedSuites?: readonly SkippedSuite[];
}

/** JUnit XML: one testsuite per check family, one testcase per check. */
export function junitXml(report: CheckReport, style: JunitStyle): string {
  const e = xmlEscape;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const suites: string[] = [];
  // JUnit has no properties on <testsuites>: each suite carries the run's verdict and selection (what was not checked).
  const verdict = style.verdict;
  const s = report.selection;
  const runProperties = [
    ['verdict', verdict.text],
    ...(s
      ? [
          ['only', s.only.join(',')],
          ['skip', s.skip.join(',')],
          ['mustNotSelected', String(s.notSelected.MUST)],
          ['shouldNotSelected', String(s.notSelected.SHOULD)],
        ]
      : []),
    ...(style.properties ?? []),
  ]
    .map(([name, value]) => `<property name="${name}" value="${e(value ?? '')}"/>`)
    .join('');
  const timestamp = e(report.date.replace(/Z$/, ''));
  for (const family of style.families) {
    const checks = report.checks.filter((r) => r.family === family.id);
    if (checks.length === 0) continue;
    const n = (o: string) => checks.filter((r) => r.outcome === o).length;
    const cases = checks.map((r) => {
      const name = `${r.id} [${r.level}] ${r.title}`;
      const open = `    <testcase classname="${style.classPrefix}.${e(family.id)}" name="${e(name)}" time="${seconds(r.durationMs)}">`;
      const props = `      <properties><property name="level" value="${r.level}"/><property name="clause" value="${e(r.clause)}"/></properties>`;
      let body = '';
      if (r.outcome === 'skip') body = `      <skipped message="${e(r.reason ?? 'skipped')}"/>`;
      else if (r.outcome === 'error')
        body = `      <error message="${e(r.reason ?? 'error')}" type="${r.level}">${e(r.reason ?? '')}</error>`;
      else if (r.outcome === 'fail') {
        const text = [`${failureHeading(r)}; clause: ${r.clause}`, ...r.evidence.flatMap(evidenceLines)].join('\n');
        body = `      <failure message="${e(r.evidence[0]?.message ?? 'failed')}" type="${r.level}">${e(text)}</failure>`;
      }
      // What the check covered (a pass) and its information, e.g. fields the contract does not name.
      const out = [
        ...(r.outcome === 'pass' && r.reason ? [r.reason] : []),
        ...(r.info?.length ? [`${infoHeading(r)}:`, ...r.info.map((line) => `- ${line}`)] : []),
      ];
      const systemOut = out.length ? [`      <system-out>${e(out.join('\n'))}</system-out>`] : [];
      return [open, props, ...(body ? [body] : []), ...systemOut, '    </testcase>'].join('\n');
    });
    // Each check's own time; the suite's is their sum (the convention of JUnit consumers).
    const time = checks.reduce((s, r) => s + r.durationMs, 0);
    suites.push(
      `  <testsuite name="${e(`${family.id}: ${family.title}`)}" tests="${checks.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}" time="${seconds(time)}" timestamp="${timestamp}">\n    <properties>${runProperties}</properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  let extra = 0;
  for (const suite of style.skippedSuites ?? []) {
    if (suite.cases.length === 0) continue;
    extra += suite.cases.length;
    const cases = suite.cases.map((c) =>
      [
        `    <testcase classname="${style.classPrefix}.${e(suite.id)}" name="${e(c.name)}" time="0.000">`,
        `      <skipped message="${e(c.message)}"/>`,
        '    </testcase>',
      ].join('\n'),
    );
    suites.push(
      `  <testsuite name="${e(`${suite.id}: ${suite.title}`)}" tests="${suite.cases.length}" failures="0" errors="0" skipped="${suite.cases.length}" time="0.000" timestamp="${timestamp}">\n    <properties>${runProperties}</properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const c = report.counts;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${e(style.name)}" tests="${report.checks.length + extra}" failures="${c.fail.total}" errors="${c.error.total}" skipped="${c.skip.total + extra}" time="${seconds(report.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
