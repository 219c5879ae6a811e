import type { CheckResult, Evidence, Report } from '../types.js';

function h(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

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
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .skip { background: var(--skip); } .error { background: var(--error); }
.level { font-weight: 600; } .reason { color: #59636e; }
.class-ok { color: var(--pass); font-weight: 700; } .class-ko { color: var(--fail); font-weight: 700; }
ul.reasons { margin: 8px 0 0; padding-left: 20px; color: var(--fail); }
details { margin-top: 4px; } summary { cursor: pointer; color: #0969da; }
`;

function evidence(e: Evidence): string {
  const parts = [`<p><strong>${h(e.message)}</strong></p>`];
  if (e.expected !== undefined) parts.push(`<div>expected: <code>${h(e.expected)}</code></div>`);
  if (e.actual !== undefined && e.actual !== '') parts.push(`<div>actual: <code>${h(e.actual)}</code></div>`);
  if (e.request) {
    const headers = Object.entries(e.request.headers).map(([k, v]) => `${k}: ${v}`).join('\n');
    parts.push(`<pre>${h(`${e.request.method} ${e.request.url}\n${headers}${e.request.body ? `\n\n${e.request.body}` : ''}`)}</pre>`);
  }
  if (e.response) {
    const headers = Object.entries(e.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n');
    parts.push(`<pre>${h(`HTTP ${e.response.status}\n${headers}${e.response.body ? `\n\n${e.response.body}` : ''}`)}</pre>`);
  }
  return parts.join('\n');
}

function row(r: CheckResult): string {
  const label = r.baselined ? 'fail (baselined)' : r.outcome;
  const detail =
    r.outcome === 'fail'
      ? `<details open><summary>${r.failureCount} failure(s)</summary>${r.evidence.map(evidence).join('<hr>')}</details>`
      : r.reason
        ? `<div class="reason">${h(r.reason)}</div>`
        : '';
  return `<tr id="${h(r.id)}"><td><span class="badge ${r.outcome}">${h(label)}</span></td><td class="level">${r.level}</td><td><code>${h(r.id)}</code><div>${h(r.title)}</div>${detail}</td><td>${h(r.clause)}</td><td>${(r.durationMs / 1000).toFixed(2)} s</td></tr>`;
}

/** The self-contained certification report (no external assets, no scripts). */
export function htmlReport(report: Report): string {
  const c = report.counts;
  const families = report.families
    .map(
      (f) =>
        `<tr><td><a href="#family-${h(f.family)}">${h(f.title)}</a> <code>${h(f.family)}</code></td><td class="${f.certified ? 'class-ok' : 'class-ko'}">${f.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}</td><td>${f.counts.pass.total}</td><td>${f.counts.fail.total}</td><td>${f.counts.error.total}</td><td>${f.counts.skip.total}</td></tr>`,
    )
    .join('\n');
  const sections = report.families
    .map((f) => {
      const rows = report.checks.filter((r) => r.family === f.family).map(row).join('\n');
      return `<h2 id="family-${h(f.family)}">${h(f.title)} <span class="${f.certified ? 'class-ok' : 'class-ko'}">${f.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}</span></h2>\n<table><thead><tr><th>Outcome</th><th>Level</th><th>Check</th><th>Clause of the reference</th><th>Time</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
    })
    .join('\n');
  const reasons = report.exitReasons.length ? `<ul class="reasons">${report.exitReasons.map((r) => `<li>${h(r)}</li>`).join('')}</ul>` : '';
  const notes = report.notes.length ? `<h2>Notes</h2><ul>${report.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>opsapi conformance: ${h(report.target)} - ${report.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>Operations Platform API conformance report</h1>
<span class="verdict ${report.certified ? 'ok' : 'ko'}" id="verdict">${report.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}</span>
<dl class="meta">
<dt>Target</dt><dd>${h(report.target)}</dd>
<dt>Date</dt><dd>${h(report.date)}</dd>
<dt>Duration</dt><dd>${(report.durationMs / 1000).toFixed(1)} s</dd>
<dt>Tool</dt><dd>${h(report.tool.name)} ${h(report.tool.version)}</dd>
<dt>Contract</dt><dd>${h(report.contractVersion)}</dd>
<dt>Checks</dt><dd>${report.checks.length}: ${c.pass.total} pass, ${c.fail.total} fail, ${c.error.total} error, ${c.skip.total} skip (MUST: ${c.pass.MUST} pass, ${c.fail.MUST} fail, ${c.error.MUST} error, ${c.skip.MUST} skip)</dd>
<dt>Exit code</dt><dd>${report.exitCode}</dd>
</dl>
${reasons}
<p>CERTIFIED means that no MUST check (documented behaviour of the reference) failed, errored or was skipped. SHOULD checks cover behaviour the contract infers.</p>
</header>
<main>
<h2>Conformance classes</h2>
<table><thead><tr><th>Class</th><th>Verdict</th><th>Pass</th><th>Fail</th><th>Error</th><th>Skip</th></tr></thead><tbody>
${families}
</tbody></table>
${sections}
${notes}
</main>
</body>
</html>
`;
}
