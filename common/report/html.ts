import type { CheckReport, CheckResult, Evidence, FamilyVerdict, Verdict } from './types.js';
import {
  duration,
  failureHeading,
  failuresFirst,
  infoHeading,
  isBroken,
  isFailing,
  isGood,
  mustRanLine,
  selectionLine,
} from './verdict.js';

/** What a tool's HTML report names its own way. */
interface HtmlStyle {
  /** The page's title before the target: `opsapi conformance`. */
  title: string;
  /** The page's heading: `Operations Platform API conformance report`. */
  heading: string;
  /** The heading of the table of classes: `Conformance classes`. */
  classesHeading: string;
  /** What the target is called in the header (`Target`). */
  targetLabel: string;
  verdict: Verdict;
  /** The paragraph under the header: what the verdict means (HTML; `narrowed`: a run --only/--skip narrowed). */
  legend(label: Verdict['label'], narrowed: boolean): string;
  /** Rows of the header after the exit code (label, text). */
  meta?: readonly (readonly [string, string])[];
  /** Sections (HTML) between the table of classes and the checks. */
  sections?: string;
  /** Whether the checks show their own time (false: a judge over recorded traffic takes none). */
  times?: boolean;
}

/** Text as HTML content or an attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const h = escapeHtml;

/** The anchor of a check's row (ids hold dots and dashes only, valid in an HTML id and a URL fragment). */
function checkAnchor(id: string): string {
  return `check-${id}`;
}

/**
 * "Failures only" is a checkbox and CSS `:has()`: the page stays one self-contained file with no script (Chromium,
 * Firefox and Safari have supported `:has()` since 2023; an older browser shows every check).
 */
const CSS = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --error: #9a6700; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 24px 32px; }
main { padding: 16px 32px 48px; max-width: 1280px; }
h1 { margin: 0 0 8px; font-size: 22px; }
h2 { margin: 28px 0 8px; font-size: 18px; }
.verdict { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: 700; font-size: 18px; color: #fff; letter-spacing: .04em; }
.verdict.ok { background: var(--pass); } .verdict.ko { background: var(--fail); }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0 0; }
.meta dt { color: #59636e; } .meta dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; border: 1px solid var(--line); padding: 8px; margin: 6px 0; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .skip { background: var(--skip); } .error { background: var(--error); }
.level { font-weight: 600; } .reason { color: #59636e; } .time { white-space: nowrap; }
.class-ok { color: var(--pass); font-weight: 700; } .class-ko { color: var(--fail); font-weight: 700; }
ul.why, ul.reasons { margin: 8px 0 0; padding-left: 20px; color: var(--fail); }
ul.why.ok { color: var(--pass); }
nav.failing { margin: 16px 0 0; } nav.failing ol { margin: 4px 0 0; padding-left: 24px; columns: 2; }
nav.failing a { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
label.toggle { display: inline-block; margin: 12px 0 0; font-weight: 600; cursor: pointer; }
details { margin-top: 4px; } summary { cursor: pointer; color: #0969da; }
details.info ul { margin: 4px 0; padding-left: 20px; color: #59636e; }
tr.check:target { outline: 3px solid #0969da; outline-offset: -3px; }
body:has(#failures-only:checked) tr.check:not(.failing),
body:has(#failures-only:checked) section.family:not(.has-failures),
body:has(#failures-only:checked) tr.class:not(.has-failures) { display: none; }
`;

function evidence(e: Evidence): string {
  const parts = [`<p><strong>${h(e.message)}</strong></p>`];
  if (e.expected !== undefined) parts.push(`<div>expected: <code>${h(e.expected)}</code></div>`);
  if (e.actual !== undefined && e.actual !== '') parts.push(`<div>actual: <code>${h(e.actual)}</code></div>`);
  if (e.request) {
    const headers = Object.entries(e.request.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    parts.push(
      `<pre>${h(`${e.request.method} ${e.request.url}\n${headers}${e.request.body ? `\n\n${e.request.body}` : ''}`)}</pre>`,
    );
  }
  if (e.response) {
    const headers = Object.entries(e.response.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    parts.push(
      `<pre>${h(`HTTP ${e.response.status}\n${headers}${e.response.body ? `\n\n${e.response.body}` : ''}`)}</pre>`,
    );
  }
  return parts.join('\n');
}

function info(r: CheckResult): string {
  if (!r.info?.length) return '';
  return `<details class="info"><summary>${h(infoHeading(r))}</summary><ul>${r.info.map((line) => `<li>${h(line)}</li>`).join('')}</ul></details>`;
}

function row(r: CheckResult, times: boolean): string {
  const label = r.baselined ? `${r.outcome} (baselined)` : r.outcome;
  const detail =
    r.outcome === 'fail'
      ? `<details open><summary>${h(failureHeading(r))}</summary>${r.evidence.map(evidence).join('<hr>')}</details>`
      : r.reason
        ? `<div class="reason">${h(r.reason)}</div>`
        : '';
  return `<tr class="check ${r.outcome}-row${isFailing(r) ? ' failing' : ''}" id="${h(checkAnchor(r.id))}"><td><span class="badge ${r.outcome}">${h(label)}</span></td><td class="level">${r.level}</td><td><code>${h(r.id)}</code><div>${h(r.title)}</div>${detail}${info(r)}</td><td>${h(r.clause)}</td>${times ? `<td class="time">${duration(r.durationMs)}</td>` : ''}</tr>`;
}

/** The failing checks, each linked to its row: the first thing a reader of a failed run needs. */
function failingNav(checks: CheckResult[]): string {
  const failing = checks.filter(isFailing);
  if (failing.length === 0)
    return '<nav class="failing" id="failing"><strong>No check failed or errored.</strong></nav>';
  const items = failing
    .map(
      (r) =>
        `<li><a href="#${h(checkAnchor(r.id))}">${h(r.id)}</a> <span class="badge ${r.outcome}">${h(r.baselined ? `${r.outcome} (baselined)` : r.outcome)}</span> <span class="level">${r.level}</span></li>`,
    )
    .join('');
  return `<nav class="failing" id="failing"><strong>Failing checks (${failing.length})</strong><ol>${items}</ol></nav>`;
}

/** The self-contained certification report: no external assets and no script. */
export function htmlPage(report: CheckReport, style: HtmlStyle): string {
  const times = style.times ?? true;
  const c = report.counts;
  const checks = failuresFirst(report.checks);
  const failingFamily = new Set(checks.filter(isFailing).map((r) => r.family));
  const families = [...report.families].sort(
    (a, b) => Number(failingFamily.has(b.family)) - Number(failingFamily.has(a.family)),
  );
  const overall = style.verdict;
  // A class reads as the whole report does: certified under --certify, else passed or failed (a MUST check broken);
  // a run --only/--skip narrowed certifies nothing, so its classes read passed or failed too.
  const narrowed = (report.selection?.notSelected.MUST ?? 0) + (report.selection?.notSelected.SHOULD ?? 0) > 0;
  const certifying = (overall.label === 'CERTIFIED' || overall.label === 'NOT CERTIFIED') && !narrowed;
  const verdict = (f: FamilyVerdict<string>) => {
    const ok = certifying
      ? f.certified
      : !report.checks.some((r) => r.family === f.family && r.level === 'MUST' && isBroken(r));
    const label = certifying ? (ok ? 'CERTIFIED' : 'NOT CERTIFIED') : ok ? 'PASSED' : 'FAILED';
    return `<span class="${ok ? 'class-ok' : 'class-ko'}">${label}</span>`;
  };
  const classes = families
    .map((f) => {
      const failing = failingFamily.has(f.family) ? ' has-failures' : '';
      return `<tr class="class${failing}"><td><a href="#family-${h(f.family)}">${h(f.title)}</a> <code>${h(f.family)}</code></td><td>${verdict(f)}</td><td>${f.counts.pass.total}</td><td>${f.counts.fail.total}</td><td>${f.counts.error.total}</td><td>${f.counts.skip.total}</td></tr>`;
    })
    .join('\n');
  const sections = families
    .map((f) => {
      const rows = checks
        .filter((r) => r.family === f.family)
        .map((r) => row(r, times))
        .join('\n');
      const failing = failingFamily.has(f.family) ? ' has-failures' : '';
      return `<section class="family${failing}" id="family-${h(f.family)}"><h2>${h(f.title)} ${verdict(f)}</h2>\n<table><thead><tr><th>Outcome</th><th>Level</th><th>Check</th><th>Clause of the reference</th>${times ? '<th>Time</th>' : ''}</tr></thead><tbody>\n${rows}\n</tbody></table></section>`;
    })
    .join('\n');
  const good = isGood(overall);
  const whyList = `<ul class="why ${good ? 'ok' : 'ko'}" id="why">${overall.because.map((r) => `<li>${h(r)}</li>`).join('')}</ul>`;
  const selection = selectionLine(report);
  const reasons = report.exitReasons.length
    ? `<ul class="reasons" id="exit-reasons">${report.exitReasons.map((r) => `<li>exit 1: ${h(r)}</li>`).join('')}</ul>`
    : '';
  const notes = report.notes.length
    ? `<h2>Notes</h2><ul>${report.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`
    : '';
  const title = overall.label;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(style.title)}: ${h(report.target)} - ${title}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${h(style.heading)}</h1>
<span class="verdict ${good ? 'ok' : 'ko'}" id="verdict">${title}</span>
${whyList}
<dl class="meta">
<dt>${h(style.targetLabel)}</dt><dd>${h(report.target)}</dd>
<dt>Date</dt><dd>${h(report.date)}</dd>
<dt>Duration</dt><dd>${(report.durationMs / 1000).toFixed(1)} s</dd>
<dt>Tool</dt><dd>${h(report.tool.name)} ${h(report.tool.version)}</dd>
<dt>Contract</dt><dd>${h(report.contractVersion)}</dd>
<dt>Checks</dt><dd>${report.checks.length}: ${c.pass.total} pass, ${c.fail.total} fail, ${c.error.total} error, ${c.skip.total} skip (MUST: ${c.pass.MUST} pass, ${c.fail.MUST} fail, ${c.error.MUST} error, ${c.skip.MUST} skip)</dd>
<dt>MUST checks</dt><dd id="must-ran">${h(mustRanLine(report))}</dd>
${selection ? `<dt>Selection</dt><dd id="selection">${h(selection)}</dd>` : ''}
<dt>Exit code</dt><dd>${report.exitCode}</dd>
${(style.meta ?? []).map(([dt, dd]) => `<dt>${h(dt)}</dt><dd>${h(dd)}</dd>\n`).join('')}</dl>
${reasons}
<p>${style.legend(overall.label, narrowed)}</p>
${failingNav(checks)}
<label class="toggle"><input type="checkbox" id="failures-only"> Show failures only</label>
</header>
<main>
<h2>${h(style.classesHeading)}</h2>
<table><thead><tr><th>Class</th><th>Verdict</th><th>Pass</th><th>Fail</th><th>Error</th><th>Skip</th></tr></thead><tbody>
${classes}
</tbody></table>
${style.sections ?? ''}
${sections}
${notes}
</main>
</body>
</html>
`;
}
