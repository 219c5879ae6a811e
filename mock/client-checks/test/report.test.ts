import { describe, expect, it } from 'vitest';
import { CLIENT_SECTIONS } from '../../../spec/reference/sentences.js';
import { CLIENT_CHECKS, NOT_OBSERVABLE } from '../checks.js';
import { pendingOf } from '../pending.js';
import { type ClientRun, clientReport, clientReportHtml, clientReportJunit, renderClientReport } from '../report.js';
import type { Trace } from '../trace.js';
import { delivery, LATER, OPTIONS, page, readSku, req, subscription, trace } from './traces.js';

const RUN: ClientRun = { profile: 'certify', seed: 7, startedAt: 0, target: 'org acme', options: OPTIONS };

/** A trace where every check of the table passes (a well-behaved client under the profile certify). */
function wellBehaved(): Trace {
  const refused = page(2, 3, {
    at: 100,
    answeredAt: 100,
    status: 429,
    answeredBy: 'injected',
    retryAfter: { header: 'Retry-After', delayMs: 1000 },
  });
  const first = delivery({ eventId: 'e1', sentAt: 3000 });
  const forged = (kind: 'wrong-key' | 'hex-63' | 'non-hex', n: number) =>
    delivery({
      kind,
      entity: { field: 'skuReference', value: `forged-${n}` },
      sentAt: 3500,
      answer: { status: 401, at: 3510 },
    });
  return trace({
    requests: [
      req({
        body: { bytes: 10, digest: 'd' },
        contentType: 'application/json',
        method: 'POST',
        operationId: 'createWebhookSubscription',
      }),
      page(1, 3, {
        rawQuery: 'pageNumber=1&pageSize=10&filterBy=a%5BEquals%5D1%26%26b%5BEquals%5D2',
        list: { pageNumber: '1', pageSize: '10', filterBy: 'a[Equals]1&&b[Equals]2', totalPages: 1 },
      }),
      page(1, 3),
      refused,
      page(2, 3, { at: 1200 }),
      page(3, 3, { at: 1300 }),
      readSku('SKU-1', 3100),
    ],
    deliveries: [
      first,
      delivery({ eventId: 'e1', kind: 'duplicate', sentAt: 4000, answer: { status: 200, at: 4005 } }),
      forged('wrong-key', 1),
      forged('hex-63', 2),
      forged('non-hex', 3),
      delivery({ kind: 'raw-sensitive', entity: { field: 'skuReference', value: 'SKU-2' }, sentAt: 3600 }),
    ],
    subscriptions: [subscription({ at: 600, requestSeq: 6 })],
    eventReads: [5],
  });
}

describe('the table of client checks', () => {
  it('has the 17 fixed ids, each with a clause quoting the reference, and the not-observable rules', () => {
    expect(CLIENT_CHECKS.map((c) => c.id)).toHaveLength(17);
    expect(new Set(CLIENT_CHECKS.map((c) => c.id)).size).toBe(17);
    expect(CLIENT_CHECKS.filter((c) => c.level === 'MUST').map((c) => c.id)).toEqual([
      'client.auth-bearer',
      'client.body-content-type',
      'client.paging-bounds',
      'client.filter-encoding',
      'client.page-walk-stops',
      'client.retry-after-wait',
      'client.receiver-accepts',
      'client.receiver-raw-body',
      'client.receiver-rejects-forged',
    ]);
    for (const c of CLIENT_CHECKS) expect(c.clause, c.id).toMatch(/^[A-Z][^:]+: "/);
    expect(NOT_OBSERVABLE.map((n) => n.id)).toEqual([
      'client.receiver-constant-time',
      'client.receiver-background',
      'client.versions-tested',
    ]);
  });
  it('quotes every sentence of the rules for clients (the table holds only quoted sentences)', () => {
    const quoted = new Set([...CLIENT_CHECKS.flatMap((c) => c.quotes), 'versioning.2.mix']);
    const ids = Object.values(CLIENT_SECTIONS).flatMap((s) => Object.keys(s));
    expect(ids.filter((id) => !quoted.has(id as never))).toEqual([]);
  });
});

describe('the report of client checks', () => {
  it('certifies a well-behaved client: every MUST check ran and passed, no SHOULD failure', () => {
    const base = wellBehaved();
    const t = { ...base, requests: [...base.requests, readSku('SKU-2', 3700)] };
    const report = clientReport(t, RUN, LATER);
    const notPassed = report.checks.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.reason}`);
    expect(notPassed).toEqual([]);
    expect(report.certified).toBe(true);
    expect(report.verdict?.label).toBe('CERTIFIED');
    expect(report).toMatchObject({ mustRan: 9, mustTotal: 9, exitCode: 0, pending: [], profile: 'certify', seed: 7 });
    expect(report.perturbations).toEqual([]);
    expect(report.notObservable).toHaveLength(3);
  });
  it('never certifies with a MUST check skipped, and says which; notObservable is outside the MUST set', () => {
    const report = clientReport(trace({ requests: [req()] }), RUN, LATER);
    expect(report.certified).toBe(false);
    expect(report.exitCode).toBe(0);
    expect(report.mustTotal).toBe(9);
    expect(report.verdict?.label).toBe('NOT CERTIFIED');
    expect(report.verdict?.text).toMatch(/MUST checks were skipped: client\.body-content-type/);
  });
  it('fails on a MUST failure; under observe reads PASSED or FAILED as the exit code', () => {
    const bad = trace({ requests: [req({ list: { pageNumber: '0' } })] });
    const observed = clientReport(bad, { ...RUN, profile: 'observe' }, LATER);
    expect(observed.exitCode).toBe(1);
    expect(observed.verdict?.text).toBe('FAILED: 1 MUST check(s) failed: client.paging-bounds');
    const fine = clientReport(trace({ requests: [req()] }), { ...RUN, profile: 'observe' }, LATER);
    expect(fine.verdict?.label).toBe('PASSED');
    expect(fine.verdict?.because).toContain('1 of 9 MUST checks ran');
  });
  it('reports pending observations until their window passed', () => {
    const t = trace({ deliveries: [delivery({ answer: undefined }), delivery({ kind: 'wrong-key', sentAt: 1000 })] });
    expect(pendingOf(t, OPTIONS, 1100).map((p) => p.what)).toEqual([
      expect.stringMatching(/not answered yet$/),
      expect.stringMatching(/within its window$/),
    ]);
    const report = clientReport(t, RUN, 1100);
    expect(report.pending).toHaveLength(2);
    expect(report.notes[0]).toMatch(/2 observation\(s\) pending/);
    expect(report.perturbations.map((p) => p.kind)).toEqual([]);
  });
  it('renders JUnit with a suite per class and the rules not observable as skipped cases, and HTML without times', () => {
    const report = clientReport(trace({ requests: [req({ auth: { shape: 'no-scheme', jwt: true } })] }), RUN, LATER);
    const xml = clientReportJunit(report);
    expect(xml).toContain(
      '<testsuites name="opsapi client-checks org acme" tests="20" failures="1" errors="0" skipped="',
    );
    expect(xml).toContain('classname="opsapi.client.requests" name="client.auth-bearer [MUST]');
    expect(xml).toContain('<testsuite name="not-observable: Not observable from outside" tests="3"');
    expect(xml).toContain('<property name="profile" value="certify"/>');
    const html = clientReportHtml(report);
    expect(html).toContain('<h1>Operations Platform API client certification report</h1>');
    expect(html).toContain('id="verdict">NOT CERTIFIED</span>');
    expect(html).toContain('<section id="not-observable">');
    expect(html).not.toContain('<th>Time</th>');
    expect(html).not.toMatch(/eyJ/);
    expect(renderClientReport(report, 'json').contentType).toMatch(/^application\/json/);
    expect(JSON.parse(renderClientReport(report, 'json').body).checks).toHaveLength(17);
  });
});
