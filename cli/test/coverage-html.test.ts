/** The HTML coverage report as text: self-contained, and escaped whatever the target answered. */
import { describe, expect, it } from 'vitest';
import type { CoverageReport } from '../coverage/document.js';
import { coverageHtml } from '../coverage/html.js';

/** A report of a target that answered markup in its strings (any server may answer `GET /__mock/coverage`). */
function hostileReport(): CoverageReport {
  const evil = '<img src=x onerror="alert(1)">';
  return {
    target: `http://127.0.0.1:1/${evil}`,
    generatedAt: '2026-01-01T00:00:00.000Z',
    restrictedTo: [`op${evil}`],
    minimums: { pairs: 100 },
    gate: { ok: false, failures: [`pairs 0% < 100%: never saw 429 on GET /v1/${evil} (op)`] },
    coverage: {
      operations: [{ operationId: `op${evil}`, method: 'GET', path: `/v1/${evil}`, called: 0 }],
      pairs: [{ operationId: `op${evil}`, status: 429, code: `CODE.${evil}`, provenance: 'documented', hit: 0 }],
      summary: { operations: { hit: 0, total: 1 }, pairs: { hit: 0, total: 1 } },
    },
  };
}

describe('the HTML coverage report', () => {
  it('escapes every string it shows, so a hostile target cannot put markup in it', () => {
    const html = coverageHtml(hostileReport());
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('is one file: no script, no stylesheet or image from elsewhere, and a policy that forbids them', () => {
    const html = coverageHtml(hostileReport());
    expect(html).not.toMatch(/<script|<link|\bsrc=["']?http/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('shows no verdict when no minimum was asked for', () => {
    const html = coverageHtml({ ...hostileReport(), minimums: {}, gate: { ok: true, failures: [] } });
    expect(html).not.toContain('class="verdict');
  });
});
