import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INDEPENDENT_FAULTS,
  startIndependentServer,
  type IndependentServer,
  type IndependentTenant,
} from '../../test/support/independent-server/index.js';
import { contract } from '../contract/contract.js';
import { judgingContract } from '../contract/judging-contract.js';
import { ProxyChecker, type Violation } from '../proxy/checker.js';
import { startForwardingProxy } from '../proxy/forward.js';
import { learnDecisions } from '../learn/learn.js';
import { runConformance } from '../orchestration/runner.js';
import type { ConformOptions } from '../context.js';
import type { Report } from '../types.js';
import { EXPECTED } from './support/fault-checks.js';

/**
 * The runner against a server it did not grow from: a second implementation of the API, written from the reference
 * alone (test/support/independent-server/), faithful to every documented fact and deciding differently wherever the
 * reference is silent (field names and casing, the envelope on every list, success statuses, statuses of codes the
 * reference gives none for, a fixed-window rate limit with its own delay header, application/json problems, another
 * spelling of the 401 address, its own catalog texts, null and default order, event names and payload). MUST means
 * documented: it is certified, and each of its planted faults (the counterparts of the mock's) is caught.
 */

let server: IndependentServer;
let acme: IndependentTenant;
let globex: IndependentTenant;

beforeAll(async () => {
  // A fixed window of 600 requests per 3 s: short, so the probe's recovery is short, and 200/s on average, which the
  // probe exceeds even on a machine busy with the other test files. The runs are paced under it (PACE), as a vendor
  // passes --pace for a limit it knows.
  // Automatic attempts 0, 0.1, 0.2 and 0.4 s apart: a notification to an address that never answers (the subscription
  // lifecycle check subscribes one) ends in Failure within a second, where the default schedule keeps it Pending for
  // 7 s, past the 5 s a full run waits after its writes for settled data (measured: each full run then sat out those
  // 5 s polling the history).
  server = await startIndependentServer({
    rateLimit: { limit: 600, windowMs: 3000 },
    retryDelaysMs: [0, 100, 200, 400],
  });
  acme = await server.tenant('acme');
  globex = await server.tenant('globex');
});

afterAll(async () => {
  await server?.close();
});

/** The pace the runs keep outside the rate-limit probe: under the server's 600 per 3 s. */
const PACE = { limit: 180, windowMs: 1000 };

/** Everything a vendor gives a certifying run: credentials of two tenants, the data file and the webhook secret. */
function full(tenant: IndependentTenant, other: IndependentTenant): ConformOptions {
  return {
    baseUrl: server.url,
    token: tenant.token,
    limitedToken: tenant.limitedToken,
    otherTenantToken: other.token,
    data: tenant.data,
    webhookSecret: tenant.webhookSecret,
    allowWrites: true,
    webhooks: true,
    rateLimitProbe: true,
    pace: PACE,
  };
}

const mustIds = (report: Report, outcomes: string[]) =>
  report.checks
    .filter((c) => c.level === 'MUST' && outcomes.includes(c.outcome))
    .map((c) => `${c.id}: ${c.reason ?? c.evidence[0]?.message ?? ''}`);

describe('a server written from the reference alone', () => {
  /**
   * One certifying run serves two claims (a second whole run proved nothing more and cost ~7 s): it goes through
   * `opsapi proxy`'s checker, so the runner's verdict and the proxy's judgment of the same traffic are both shown.
   */
  it('is CERTIFIED (every MUST check runs and passes), and the proxy in front of it sees no MUST violation', async () => {
    const violations: Violation[] = [];
    const checker = new ProxyChecker({
      target: new URL(server.url),
      validator: contract().validator,
      onViolation: (v) => violations.push(v),
    });
    const proxy = await startForwardingProxy({ target: server.url, onExchange: (x) => checker.add(x) });
    let report: Report;
    try {
      report = await runConformance({ ...full(acme, globex), baseUrl: proxy.url, certify: true });
    } finally {
      await proxy.close();
    }
    expect(mustIds(report, ['fail', 'error'])).toEqual([]);
    expect(mustIds(report, ['skip'])).toEqual([]);
    expect(report.mustRan).toBe(report.mustTotal);
    expect(report.certified).toBe(true);
    expect(report.exitCode).toBe(0);
    // What it decided differently is seen, and judged at SHOULD level only, by the runner and by the proxy.
    const should = report.checks.filter((c) => c.level === 'SHOULD' && c.outcome === 'fail').map((c) => c.id);
    expect(should).toEqual(
      expect.arrayContaining([
        'errors.problem-media-type',
        'auth.401-type-form',
        'writes.subscription-answers',
        'writes.subscription-event-not-found-400',
        'webhooks.payload',
        'webhooks.event-id',
        'webhooks.manual-retry-recorded',
      ]),
    );
    expect(violations.filter((v) => v.level === 'MUST').map((v) => `${v.check}: ${v.message}`)).toEqual([]);
    expect(violations.some((v) => v.level === 'SHOULD')).toBe(true);
  }, 120_000);

  it('learn records what it decided; conform --decisions --strict then leaves at most 2 SHOULD failures', async () => {
    // Learning spends the records of its data (it deletes the deletable family twice): the judged run has its own.
    const learner = await server.tenant('learner');
    const file = await learnDecisions(full(learner, globex));
    const differs = file.decisions.filter((d) => d.differs);
    expect(differs.map((d) => d.id)).toEqual(
      expect.arrayContaining([
        'success-status:createApiKey',
        'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
        'problem-media-type',
        'problem-401-type',
        'retry-delay',
        'null-order',
        'text-case',
      ]),
    );
    const judged = await server.tenant('judged');
    const report = await runConformance({ ...full(judged, globex), decisions: file, strict: true });
    expect(mustIds(report, ['fail', 'error', 'skip'])).toEqual([]);
    const should = report.checks
      .filter((c) => c.level === 'SHOULD' && (c.outcome === 'fail' || c.outcome === 'error'))
      .map((c) => `${c.id}: ${c.evidence[0]?.message ?? c.reason ?? ''}`);
    expect(should.length, should.join('\n')).toBeLessThanOrEqual(2);
    // `opsapi proxy --decisions` judges by the same file: the server's own media type and 401 address are no longer
    // SHOULD violations, as they are for a proxy judging by the contract alone.
    const judged401 = report.checks.find((c) => c.id === 'auth.401-type-form');
    expect(judged401?.outcome).toBe('pass');
    const plain = new ProxyChecker({ target: new URL(server.url), validator: judgingContract(undefined).validator });
    const judging = judgingContract(file);
    const adapted = new ProxyChecker({ target: new URL(server.url), validator: judging.validator, env: judging });
    for (const checker of [plain, adapted]) {
      const proxy = await startForwardingProxy({ target: server.url, onExchange: (x) => checker.add(x) });
      await (await fetch(`${proxy.url}/v1/items/skus`)).arrayBuffer();
      await proxy.close();
    }
    const media = (checker: ProxyChecker) =>
      checker.report().checks.find((c) => c.id === 'errors.problem-media-type')?.outcome;
    expect(media(plain)).toBe('fail');
    expect(media(adapted)).toBe('pass');
  }, 120_000);

  it('has a counterpart of every planted fault of the mock', () => {
    expect(Object.keys(INDEPENDENT_FAULTS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  describe('each planted fault is caught by the check meant for it', () => {
    for (const fault of Object.keys(EXPECTED) as (keyof typeof EXPECTED)[]) {
      it(`${fault} -> ${EXPECTED[fault]}`, async () => {
        // A tenant of its own per fault: the rate-limit probe's window and the writes stay apart.
        const tenant = await server.tenant(`fault-${fault}`);
        server.setFaults([fault]);
        try {
          const report = await runConformance({ ...full(tenant, globex), only: [EXPECTED[fault]] });
          const check = report.checks.find((c) => c.id === EXPECTED[fault]);
          expect(check?.outcome, JSON.stringify(check)).toBe('fail');
          expect(check?.level).toBe('MUST');
          expect(check?.evidence.length).toBeGreaterThan(0);
          expect(report.exitCode).toBe(1);
        } finally {
          server.setFaults([]);
        }
      }, 60_000);
    }
  });
});
