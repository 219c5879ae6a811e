import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../index.js';
import { startMockServer, type RunningMock } from '../../index.js';
import { allChecks } from '../orchestration/registry.js';
import { htmlReport } from '../report/html.js';
import { junitReport } from '../report/junit.js';
import { textSummary } from '../report/text.js';
import { runConformance, UsageError } from '../orchestration/runner.js';
import { selects } from '../context.js';
import type { Report } from '../types.js';
import { EXPECTED } from './support/fault-checks.js';

/**
 * The mock runs with its default rate limit, 300 requests per second per tenant (a token bucket). The main run stays
 * in one fresh tenant and paces itself under it (cli.e2e.test.ts, its full run); the rate-limit probe runs alone, last,
 * in a tenant of its own, and reaches 429 after roughly 300-500 requests in well under two seconds. Its default
 * bounds (`RUN_DEFAULTS`) are far above what that needs, so the probe always ends by itself.
 */
const RATE = { limit: 300, windowMs: 1000 };
const FULL = { allowWrites: true, webhooks: true, rateLimitProbe: true } as const;

function failing(report: Report): string[] {
  return report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => c.id);
}

// The full certifying run against the faithful mock (every check passes, the reports render) is
// conformance/test/cli.e2e.test.ts: it runs the CLI, which calls this same runner.

describe('each planted fault is caught by the check meant for it', () => {
  for (const fault of Object.keys(FAULTS) as FaultName[]) {
    it(`${fault} -> ${EXPECTED[fault]}`, async () => {
      const mock = await startMockServer({ port: 0, rateLimit: RATE, faults: new Set([fault]) });
      try {
        const report = await runConformance({ baseUrl: mock.url, ...FULL, only: [EXPECTED[fault]] });
        expect(failing(report)).toContain(EXPECTED[fault]);
        expect(report.exitCode).toBe(1);
        const check = report.checks.find((c) => c.id === EXPECTED[fault]);
        expect(check?.level).toBe('MUST');
        expect(check?.evidence.length).toBeGreaterThan(0);
      } finally {
        await mock.close();
      }
    }, 60_000);
  }

  it('has a check for every fault of the mock', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(FAULTS).sort());
    const ids = new Set(allChecks().map((c) => c.id));
    for (const id of Object.values(EXPECTED)) expect(ids.has(id), id).toBe(true);
  });
});

describe('runner behaviour', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: RATE, faults: new Set(['forbidden-wrong-code']) });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('redacts the tokens it was given from every report, evidence included', async () => {
    const tenant = mock.control.tenant('conform-redaction');
    const token = await tenant.token({ roles: ['App.Admin'], permissions: ['Warehouse.Skus.Read'] });
    const limited = await tenant.token({ roles: [], permissions: [] });
    const report = await runConformance({
      baseUrl: mock.url,
      token,
      limitedToken: limited,
      only: ['permissions'],
      headers: { 'X-Gateway-Key': 'gw-secret' },
    });
    expect(failing(report)).toContain('permissions.403-code');
    const all = [JSON.stringify(report), junitReport(report), htmlReport(report), textSummary(report, false)].join(
      '\n',
    );
    expect(all).toContain('Bearer <redacted>');
    expect(all).not.toContain(token);
    expect(all).not.toContain(limited);
    expect(all).not.toContain('gw-secret');
  });

  it('accepts baselined failures and fails on stale baseline entries', async () => {
    const accepted = await runConformance({
      baseUrl: mock.url,
      only: ['permissions.403-code', 'auth.401-no-code'],
      baseline: ['permissions.403-code', 'permissions.403-code.inferred'],
    });
    expect(accepted.checks.find((c) => c.id === 'permissions.403-code')?.baselined).toBe(true);
    expect(accepted.exitCode).toBe(0);
    const stale = await runConformance({
      baseUrl: mock.url,
      only: ['auth.401-no-code'],
      baseline: ['auth.401-no-code'],
    });
    expect(stale.staleBaseline).toEqual(['auth.401-no-code']);
    expect(stale.exitCode).toBe(1);
  });

  it('skips checks whose preconditions are missing, and --certify fails on a skipped MUST', async () => {
    const report = await runConformance({
      baseUrl: mock.url,
      only: ['writes.stock-update-204', 'auth.401-type'],
      certify: true,
    });
    const writes = report.checks.find((c) => c.id === 'writes.stock-update-204');
    expect(writes?.outcome).toBe('skip');
    expect(writes?.reason).toContain('--allow-writes');
    expect(report.certified).toBe(false);
    expect(report.exitCode).toBe(1);
    const lenient = await runConformance({ baseUrl: mock.url, only: ['writes.stock-update-204', 'auth.401-type'] });
    expect(lenient.exitCode).toBe(0);
  });

  it('rejects bad options and an unreachable target', async () => {
    await expect(runConformance({ baseUrl: 'ftp://x' })).rejects.toBeInstanceOf(UsageError);
    await expect(runConformance({ baseUrl: mock.url, only: ['no.such.check'] })).rejects.toBeInstanceOf(UsageError);
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:9', only: ['auth'] })).rejects.toThrow(/cannot reach/);
  });

  it('selects checks by id and prefix', () => {
    expect(selects('lists', 'lists.defaults')).toBe(true);
    expect(selects('lists.defaults', 'lists.defaults.inferred')).toBe(true);
    expect(selects('lists.default', 'lists.defaults')).toBe(false);
    expect(selects('filters.is-*', 'filters.is-null')).toBe(true);
  });
});
