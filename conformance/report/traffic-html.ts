import type { Report } from '../types.js';

function h(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** What the traffic through `opsapi proxy` covered of the contract (empty for a run of `opsapi conform`). */
export function trafficSection(report: Report): string {
  const t = report.traffic;
  if (!t) return '';
  const calls = Object.entries(t.operations.calls)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `<tr><td><code>${h(op)}</code></td><td>${n}</td></tr>`)
    .join('');
  const missing = t.pairs.missing
    .map((p) => `<li><code>${h(p.operationId)}</code> ${p.status}${p.code ? ` ${h(p.code)}` : ''}</li>`)
    .join('');
  const undeclared = t.undeclared
    .map(
      (p) =>
        `<li><code>${h(p.operationId)}</code> ${p.status}${p.code ? ` ${h(p.code)}` : ''} (${p.count} time${p.count === 1 ? '' : 's'})</li>`,
    )
    .join('');
  const outside = t.notInContract.first.map((l) => `<li><code>${h(l)}</code></li>`).join('');
  return `<section id="traffic"><h2>Traffic</h2>
<p>${t.exchanges} exchanges (${t.withViolations} with violations, ${t.transportErrors} not answered by the target, ${t.judgedAgain} identical to one judged before); operations called ${t.operations.called} of ${t.operations.total}; declared answers met ${t.pairs.met} of ${t.pairs.total}; requests outside the contract ${t.notInContract.count}.</p>
<table><thead><tr><th>Operation</th><th>Calls</th></tr></thead><tbody>${calls}</tbody></table>
${undeclared ? `<h3>Answers the contract does not declare</h3><ul>${undeclared}</ul>` : ''}
${outside ? `<h3>Requests outside the contract (first ${t.notInContract.first.length})</h3><ul>${outside}</ul>` : ''}
<details><summary>Declared answers the traffic never met (${t.pairs.missing.length})</summary><ul>${missing}</ul></details>
</section>`;
}
