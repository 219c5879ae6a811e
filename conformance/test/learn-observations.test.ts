/** What `opsapi learn` reads from every answer (conformance/learn/observations.ts), without a target. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../wire/client.js';
import { Observations } from '../learn/observations.js';
import { Redactor } from '../wire/redact.js';

let seq = 0;

/** An exchange as the client records it. */
function exchange(operationId: string | undefined, status: number, json: unknown, type = 'application/json'): Exchange {
  const text = json === undefined ? '' : JSON.stringify(json);
  return {
    seq: ++seq,
    check: 'learn',
    method: 'GET',
    path: '/v1/items/skus',
    target: '/v1/items/skus',
    url: 'http://target.test/v1/items/skus',
    requestHeaders: {},
    status,
    headers: { 'content-type': type },
    text,
    json,
    durationMs: 1,
    ...(operationId ? { operationId } : {}),
  };
}

const page = (results: unknown[]) => ({
  results,
  pageNumber: 1,
  pageSize: 25,
  totalPages: 1,
  totalCount: results.length,
});
const observed = (seen: Observations) => Object.fromEntries(seen.entries().map(([id, s]) => [id, s.observed]));

describe('Observations', () => {
  it('reads statuses, the problem media type and the plain 401 address from any answer', () => {
    const seen = new Observations(new Redactor());
    const problem = { type: 'x', title: 't', status: 422, detail: 'd', instance: 'GET /v1/items/skus' };
    seen.scan(
      exchange('listSkus', 422, { ...problem, code: 'COMMON.VALIDATION.ERROR' }, 'application/json; charset=utf-8'),
    );
    const address = 'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2';
    seen.scan(exchange('listSkus', 401, { ...problem, status: 401, type: address }, 'application/json'));
    seen.scan(exchange('listSkus', 200, page([])));
    expect(observed(seen)).toMatchObject({
      'code-status:COMMON.VALIDATION.ERROR': 422,
      'problem-media-type': 'application/json',
      'problem-401-type': address,
      'success-status:listSkus': 200,
    });
  });

  it('builds the records of an operation from all its answers: a member missing from one is not always there', () => {
    const seen = new Observations(new Redactor());
    seen.scan(exchange('listSkus', 200, page([{ id: 'a', CreatedAt: '2025-01-01', weightKg: 1 }])));
    seen.scan(
      exchange(
        'listSkus',
        200,
        page([
          { id: 'b', CreatedAt: '2025-01-02', weightKg: null },
          { id: 'c', CreatedAt: '2025-01-03' },
        ]),
      ),
    );
    seen.scan(exchange('listEventVersions', 200, [{ eventName: 'A.B.C', eventVersion: 1 }]));
    seen.settle();
    const found = observed(seen);
    expect(found['record-fields:listSkus']).toEqual({
      fields: [
        { name: 'CreatedAt', types: ['string'], always: true },
        { name: 'id', types: ['string'], always: true },
        { name: 'weightKg', types: ['null', 'number'], always: false },
      ],
    });
    expect(found['list-form:listSkus']).toBe('envelope');
    expect(found['list-form:listEventVersions']).toBe('array');
  });

  it('keeps the first value of a point and notes the others as conflicts, unless a better one replaces it', () => {
    const seen = new Observations(new Redactor());
    seen.record('retry-delay', { header: 'Retry-After', unit: 'seconds' });
    seen.record('retry-delay', { header: 'X-Retry-After', unit: 'seconds' });
    expect(seen.entries()[0]?.[1].conflicts).toEqual([{ header: 'X-Retry-After', unit: 'seconds' }]);
    seen.record('retry-delay', { header: 'X-RateLimit-Reset-After-Ms', unit: 'milliseconds' }, undefined, true);
    expect(observed(seen)['retry-delay']).toEqual({ header: 'X-RateLimit-Reset-After-Ms', unit: 'milliseconds' });
    seen.cannot('retry-delay', 'ignored: it was observed');
    seen.record('no-such-point', 1);
    expect(seen.notObserved()).toEqual([]);
    expect(seen.has('no-such-point')).toBe(false);
  });
});
