import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { runConformance } from '../runner.js';
import type { Report } from '../types.js';

/**
 * The whole run against the mock at its default limit (300 requests per second per tenant, a token bucket), in a
 * tenant the test names so it can read the mock's coverage of it: what the run spent of each tenant's rate limit.
 */
const ORG = `pacing-${Math.random().toString(36).slice(2, 8)}`;
let mock: RunningMock;
let report: Report;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimit: { limit: 300, windowMs: 1000 } });
  const token = await mock.control.tenant(ORG).token();
  report = await runConformance({
    baseUrl: mock.url,
    token,
    allowWrites: true,
    webhooks: true,
    rateLimitProbe: true,
  });
}, 120_000);

afterAll(async () => {
  await mock?.close();
});

/** Requests a tenant answered (any status), and how many of them were 429s. */
function spent(org: string): { requests: number; limited: number } {
  const coverage = mock.control.tenant(org).coverage();
  return {
    requests: coverage.operations.reduce((n, op) => n + op.called, 0),
    limited: coverage.pairs.filter((p) => p.status === 429).reduce((n, p) => n + p.hit, 0),
  };
}

describe('a full run paced to the rate limit', () => {
  it('passes every check, the rate-limit probe included', () => {
    expect(report.exitCode).toBe(0);
    expect(report.checks.filter((c) => c.outcome !== 'pass').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
  });

  it('meets no 429 in the main or the other tenant: only the probe, in a tenant of its own, does', () => {
    expect(spent(ORG).limited).toBe(0);
    expect(spent(`${ORG}-other`).limited).toBe(0);
    expect(spent(`${ORG}-rl`).limited).toBeGreaterThan(0);
  });

  it('spends at most 1,000 requests of the main tenant, a share of the error catalog being read by the other', () => {
    // Measured: about 940 (1,450 before the checks shared their reads and split the catalog).
    expect(spent(ORG).requests).toBeLessThanOrEqual(1000);
    const catalogReads = (org: string) =>
      mock.control
        .tenant(org)
        .coverage({ operations: ['getError'] })
        .operations.reduce((n, op) => n + op.called, 0);
    expect(catalogReads(`${ORG}-other`)).toBeGreaterThan(200);
    expect(catalogReads(ORG)).toBeGreaterThan(200);
  });
});
