import { STATUS_CODES } from 'node:http';
import type { CatalogRecord } from '../../spec/errors/index.js';

/** Text as HTML: every character that could start markup or end an attribute is escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Addresses the page links to (the page builds no address itself from the request). */
interface ErrorPageLinks {
  /** The problem `type` of this code: `{base_url}/errors/<code>`. */
  readonly type: string;
  /** This entry as JSON. */
  readonly json: string;
  /** The interactive API reference. */
  readonly docs: string;
}

/** Content-Security-Policy of the page: no script, no fetch, nothing from elsewhere; only its own inline style and empty icon. */
export const ERROR_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2430}
main{max-width:52rem;margin:2rem auto;padding:2rem;background:#fff;border:1px solid #dde1e7;border-radius:8px}
.kicker{margin:0;color:#5b6675;font-size:.85rem;text-transform:uppercase;letter-spacing:.05em}
h1{margin:.25rem 0 .5rem;font-size:1.6rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef1f5;padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#5b6675}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;border-bottom:1px solid #dde1e7;padding:.4rem .5rem;vertical-align:top}
th{background:#eef1f5}nav{margin-top:1.5rem;display:flex;gap:1.5rem}a{color:#0b57d0}
`;

function provenance(kind: 'documented' | 'inferred', rationale: string | undefined): string {
  return kind === 'documented' ? 'documented by the API reference' : `inferred${rationale ? `: ${rationale}` : ''}`;
}

/**
 * The human page of one catalog entry (Errors / Problem body: `type` is `{base_url}/errors/<code>`, so a developer
 * who follows it from a problem body reads what the code means). Self-contained: inline style, no script, no
 * external resource; every value from the catalog is escaped.
 */
export function errorPageHtml(record: CatalogRecord, links: ErrorPageLinks): string {
  const e = escapeHtml;
  const reason = STATUS_CODES[record.status] ?? '';
  const rows = record.parameters
    .map((p) => `<tr><td><code>${e(p.key)}</code></td><td>${e(p.description)}</td></tr>`)
    .join('');
  const parameters = record.parameters.length
    ? `<table id="parameters"><thead><tr><th scope="col">Key</th><th scope="col">Description</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p id="parameters">This code carries no parameters.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(record.code)}: ${e(record.title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="kicker">Operations Platform API &middot; error catalog</p>
<h1 id="title">${e(record.title)}</h1>
<p><code id="code">${e(record.code)}</code></p>
<dl>
<dt>HTTP status</dt><dd id="status">${record.status}${reason ? ` ${e(reason)}` : ''}</dd>
<dt>Source of the status</dt><dd>${e(provenance(record.statusProvenance, record.statusRationale))}</dd>
<dt>Problem type</dt><dd><code>${e(links.type)}</code></dd>
</dl>
<h2>Description</h2>
<p id="description">${e(record.description)}</p>
<h2>Parameters</h2>
${parameters}
<p><small>Source of the texts: ${e(provenance(record.textProvenance, record.textRationale))}</small></p>
<nav><a id="json" href="${e(links.json)}">This entry as JSON</a><a id="docs" href="${e(links.docs)}">API reference</a></nav>
</main>
</body>
</html>
`;
}

/**
 * The human page of a code the catalog does not have: a browser that follows a mistyped or invented `type` address
 * reads a page like the known codes' (a 404), not a JSON problem. Same style and policy; the code is escaped.
 */
export function unknownCodePageHtml(code: string, links: { readonly catalog: string; readonly docs: string }): string {
  const e = escapeHtml;
  const shown = code.slice(0, 200);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not in the error catalog: ${e(shown)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="kicker">Operations Platform API &middot; error catalog</p>
<h1 id="title">No such code</h1>
<p>The error catalog has no code <code id="code">${e(shown)}</code>. Codes are a prefix ending with a dot followed
by a suffix, all in capitals (for example <code>COMMON.ENTITY.NOT_FOUND</code>).</p>
<nav><a id="catalog" href="${e(links.catalog)}">A known code</a><a id="docs" href="${e(links.docs)}">API reference</a></nav>
</main>
</body>
</html>
`;
}
