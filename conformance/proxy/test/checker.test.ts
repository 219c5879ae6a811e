/** The proxy's checker: judgments reused only for an exchange identical to one judged before, to the byte. */
import { describe, expect, it } from 'vitest';
import { contract } from '../../contract/contract.js';
import { ProxyChecker } from '../checker.js';
import type { CapturedExchange } from '../exchange.js';

/** A 401 of GET /v1/items/skus whose problem names `instance` (same length whether right or wrong). */
function unauthorized(seq: number, instance: string): CapturedExchange {
  const body = Buffer.from(
    JSON.stringify({
      type: 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2',
      title: 'Unauthorized',
      status: 401,
      detail: 'No credentials.',
      instance,
    }),
  );
  return {
    seq,
    startedAt: Date.now(),
    durationMs: 1,
    method: 'GET',
    target: '/v1/items/skus',
    httpVersion: '1.1',
    requestHeaders: [['Host', 'h']],
    requestBody: Buffer.alloc(0),
    requestBodySize: 0,
    status: 401,
    statusText: 'Unauthorized',
    responseHeaders: [['Content-Type', 'application/problem+json']],
    responseBody: body,
    responseBodySize: body.length,
  };
}

describe('ProxyChecker', () => {
  it('reuses the judgment of an identical exchange, and judges anew one that differs only in its body bytes', () => {
    const checker = new ProxyChecker({ target: new URL('http://127.0.0.1:1'), validator: contract().validator });
    expect(checker.add(unauthorized(1, 'GET /v1/items/skus'))).toEqual([]);
    expect(checker.add(unauthorized(2, 'GET /v1/items/skus'))).toEqual([]);
    // Same request line, status, media type and body size: only the bytes tell it apart.
    const wrong = checker.add(unauthorized(3, 'PUT /v1/items/skus'));
    expect(wrong.map((v) => v.check)).toEqual(['errors.problem-instance']);
    expect(checker.add(unauthorized(4, 'PUT /v1/items/skus')).map((v) => v.check)).toEqual(['errors.problem-instance']);
    const report = checker.report();
    expect(report.traffic?.exchanges).toBe(4);
    expect(report.traffic?.judgedAgain).toBe(2);
    expect(report.traffic?.withViolations).toBe(2);
    expect(report.checks.find((c) => c.id === 'errors.problem-instance')?.failureCount).toBe(2);
    expect(report.checks.find((c) => c.id === 'auth.401-no-code')?.outcome).toBe('pass');
  });
});
