import type { Evidence } from './types.js';

/** Evidence as plain text lines (also used in JUnit failures). */
export function evidenceLines(e: Evidence): string[] {
  const out = [`- ${e.message}`];
  if (e.expected !== undefined) out.push(`  expected: ${e.expected}`);
  if (e.actual !== undefined && e.actual !== '') out.push(`  actual:   ${e.actual}`);
  if (e.request)
    out.push(
      `  request:  ${e.request.method} ${e.request.url}${e.request.body ? ` ${e.request.body.slice(0, 300)}` : ''}`,
    );
  if (e.response)
    out.push(
      `  response: ${e.response.status} ${e.response.headers['content-type'] ?? ''} ${(e.response.body ?? '').slice(0, 300)}`,
    );
  return out;
}
