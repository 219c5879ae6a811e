import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { startFieldAddingProxy, type FieldAddingProxy } from '../../test/support/field-adding-proxy.js';
import { textSummary } from '../report/text.js';
import { runConformance } from '../runner.js';
import type { Report } from '../types.js';

/**
 * A faithful real server sends fields the reference does not show ("Other SKU fields: not shown", "Other fields
 * returned for a subscription: not shown"; RFC 9457 extension members in problems). A proxy in front of the mock adds
 * one such member to every JSON object of every `/v1` answer; the full strict run must pass and list the members as
 * information. Rate limit as in runner.e2e.test.ts: the probe reaches 429 in its own tenant well within its bounds.
 */
const RATE = { limit: 300, windowMs: 1000 };
const ADDED = 'x_proxy_note';

describe('the runner against a server that sends fields the contract does not name', () => {
  let mock: RunningMock;
  let proxy: FieldAddingProxy;
  let report: Report;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: RATE });
    proxy = await startFieldAddingProxy(mock.url, ADDED);
    report = await runConformance({
      baseUrl: proxy.url,
      allowWrites: true,
      webhooks: true,
      rateLimitProbe: true,
      strict: true,
    });
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('went through the proxy, which added the member to the answers', () => {
    expect(report.mockAdmin).toBe(true);
    expect(proxy.decorated).toBeGreaterThan(100);
  });

  it('passes under --strict with --allow-writes --webhooks --rate-limit-probe: exit 0, nothing failed or errored', () => {
    const broken = report.checks
      .filter((c) => c.outcome === 'fail' || c.outcome === 'error')
      .map((c) => `${c.id}: ${c.reason ?? c.evidence[0]?.message ?? ''}`);
    expect(broken).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.checks.find((c) => c.id === 'schema.responses-valid.inferred')?.outcome).toBe('pass');
    expect(report.checks.find((c) => c.id === 'schema.responses-valid')?.outcome).toBe('pass');
  });

  it('lists the added members as information of the schema checks, one line per operation and field', () => {
    const schema = report.checks.filter((c) => c.family === 'schema');
    const info = schema.flatMap((c) => c.info ?? []);
    for (const line of info) expect(line).toMatch(new RegExp(`^\\w+: (\\S+\\.)?${ADDED}$`));
    for (const c of schema) expect(c.info?.length, c.id).toBe(Math.min(20, c.infoCount ?? 0));
    // Every operation gets a line before any gets a second, fields of items first: the SKU item field is among those kept.
    const inferred = report.checks.find((c) => c.id === 'schema.responses-valid.inferred');
    expect(inferred?.info).toContain(`listSkus: results[].${ADDED}`);
    expect(inferred?.infoCount).toBeGreaterThan(20);
  });

  it('shows the information in the text summary and keeps it in the JSON report', () => {
    const text = textSummary(report, false);
    expect(text).toContain('Information');
    expect(text).toContain(`listSkus: results[].${ADDED}`);
    const json = JSON.parse(JSON.stringify(report)) as Report;
    const inferred = json.checks.find((c) => c.id === 'schema.responses-valid.inferred');
    expect(inferred?.info?.length).toBeGreaterThan(0);
    expect(inferred?.infoCount).toBeGreaterThanOrEqual(inferred?.info?.length ?? 0);
  });
});
