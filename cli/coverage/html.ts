import { escapeHtml } from '../../common/report/html.js';
import type { CoverageOperation, CoveragePair } from '../../mock/coverage/schema.js';
import type { CoverageReport } from './document.js';
import { formatPercent, operationLabel, pairLabel, percentOf } from './wording.js';

const h = escapeHtml;

/** One self-contained file: inline CSS, no script, no external address (it is opened from CI artefacts). */
const CSS = `
:root { color-scheme: light; --met: #1a7f37; --never: #cf222e; --line: #d0d7de; --muted: #59636e; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 24px 32px; }
main { padding: 8px 32px 48px; max-width: 1100px; }
h1 { margin: 0 0 8px; font-size: 22px; } h2 { margin: 0 0 6px; font-size: 16px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.verdict { display: inline-block; padding: 4px 12px; border-radius: 6px; font-weight: 700; color: #fff; }
.verdict.ok { background: var(--met); } .verdict.ko { background: var(--never); }
.meta { color: var(--muted); margin: 4px 0; } ul.failures { color: var(--never); }
section.operation { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 16px 0; }
section.operation.untouched { border-left: 4px solid var(--never); }
ul.answers { list-style: none; padding: 0; margin: 6px 0 0; }
ul.answers li { padding: 2px 0; } li.met::before { content: "\\2713  "; color: var(--met); } li.never::before { content: "\\2717  "; color: var(--never); }
li.never { color: var(--never); } .provenance { color: var(--muted); font-size: 12px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
`;

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

function answer(pair: CoveragePair, op: CoverageOperation, pairs: readonly CoveragePair[]): string {
  const label = pairLabel(pair, pairs);
  const where = `${op.method} ${op.path}`;
  const provenance = `<span class="provenance">(${pair.provenance})</span>`;
  if (pair.hit > 0)
    return `<li class="met">Your client met ${h(label)} on ${h(where)} ${times(pair.hit)}. ${provenance}</li>`;
  return `<li class="never">Your client never handled ${h(label)} on ${h(where)}. ${provenance}</li>`;
}

function operationSection(op: CoverageOperation, pairs: readonly CoveragePair[]): string {
  const own = pairs.filter((p) => p.operationId === op.operationId);
  const met = own.filter((p) => p.hit > 0).length;
  const calls =
    op.called > 0
      ? `Called ${times(op.called)}; met ${met} of ${own.length} declared answers.`
      : `Never called; none of its ${own.length} declared answers met.`;
  return [
    `<section class="operation${op.called === 0 ? ' untouched' : ''}" id="op-${h(op.operationId)}">`,
    `<h2>${h(operationLabel(op))}</h2>`,
    `<p class="meta">${h(calls)}</p>`,
    `<ul class="answers">${own.map((p) => answer(p, op, pairs)).join('')}</ul>`,
    '</section>',
  ].join('\n');
}

/**
 * The coverage report as HTML: per operation, which declared answers the client's suite met and which it never
 * saw, in sentences a client developer reads as a to-do list ("Your client never handled 429 on PUT ...").
 */
export function coverageHtml(report: CoverageReport): string {
  const { coverage, gate } = report;
  const { operations, pairs } = coverage.summary;
  const judged = report.minimums.operations !== undefined || report.minimums.pairs !== undefined;
  const verdict = judged
    ? `<p><span class="verdict ${gate.ok ? 'ok' : 'ko'}">${gate.ok ? 'MINIMUMS MET' : 'UNDER A MINIMUM'}</span></p>`
    : '';
  const failures =
    gate.failures.length > 0
      ? `<ul class="failures">${gate.failures.map((f) => `<li>${h(f)}</li>`).join('')}</ul>`
      : '';
  const scope = report.restrictedTo
    ? `Restricted to ${report.restrictedTo.map((id) => `<code>${h(id)}</code>`).join(', ')}.`
    : 'Every operation of the contract.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>API coverage of your client's test suite</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>API coverage of your client's test suite</h1>
<p class="meta">Target <code>${h(report.target)}</code>, read ${h(report.generatedAt)}. ${scope}</p>
<p class="summary">Operations called: ${operations.hit} of ${operations.total} (${formatPercent(percentOf(operations.hit, operations.total))}). Declared answers met: ${pairs.hit} of ${pairs.total} (${formatPercent(percentOf(pairs.hit, pairs.total))}).</p>
${verdict}${failures}
</header>
<main>
${coverage.operations.map((op) => operationSection(op, coverage.pairs)).join('\n')}
</main>
</body>
</html>
`;
}
