import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type ClientReport, type TestMock } from 'opsapi/testing';
import { ReferenceClient } from './client.js';
import { CLIENT_FAULTS, type ClientFault } from './faults.js';
import { startReceiver } from './receiver.js';
import { runSession, type SessionOptions } from './session.js';

/**
 * Client certification proven by clients with known faults (docs/DESIGN.md, "Client certification"): under the
 * profile certify the well-behaved reference client is CERTIFIED with no SHOULD failure, each faulty variant fails
 * exactly the check of the rule it breaks, and a client that never walks a list or never subscribes gets skips that
 * say so and no certificate. Every variant is a real client (fetch) with a real receiver (node:http) on its own tenant
 * of one mock, all running at once; each run ends when the checks have nothing pending, never after a fixed sleep.
 */

/** Small delays, so a run settles in a few seconds: the 429's delay, the receiver's bound, the window for reads. */
const CHECK_OPTIONS = { retryAfterSeconds: 1, answerWithinMs: 1000, readWithinMs: 1500 } as const;
/**
 * The seed of the perturbations. The verdicts do not depend on it (the well-behaved client is certified and each fault
 * fails its own check alone); it is fixed so every variant meets the same perturbations at the same step and a failure
 * replays. With this one the first injected 429 answers the 9th `/v1` request: for most variants the receiver's read
 * of the SKU the first delivery names, which a faithful client sends again after the delay, when the duplicate may
 * have come already, and which the re-serialisation-sensitive delivery (a new event naming the same SKU) prompts once
 * more. The next one would answer the 16th, past the last request of every variant.
 */
const SEED = 3;
/** The walk's filter gives 268 SKUs of the seeded world: pages of 100 make 3 pages. */
const PAGE_SIZE = 100;

let mock: TestMock;

interface Run {
  report: ClientReport;
  /** The session's steps that failed (a fault's consequence) and the receiver's log, for the messages. */
  diagnostics: string;
}

/** Runs the reference client with some faults on a fresh tenant under the profile certify; the settled report. */
async function certify(
  faults: readonly ClientFault[],
  session: Pick<SessionOptions, 'walk' | 'subscribe'> = {},
): Promise<Run> {
  const t = mock.tenant();
  const cc = await t.clientChecks.start({ profile: 'certify', seed: SEED, ...CHECK_OPTIONS });
  const client = new ReferenceClient({
    baseUrl: mock.url,
    token: await t.token(),
    apiKey: await t.apiKey(),
    faults: new Set(faults),
  });
  const receiver = await startReceiver({
    client,
    secret: t.control.webhookSecret(),
    slowMs: CHECK_OPTIONS.answerWithinMs * 2,
  });
  try {
    const { sku } = t.fixtures();
    const result = await runSession(client, receiver, { ...session, sku, pageSize: PAGE_SIZE });
    await cc.settled({ timeoutMs: 25_000 });
    await receiver.idle();
    const report = await cc.stop();
    return { report, diagnostics: JSON.stringify({ faults, session: result, receiver: receiver.log }) };
  } finally {
    await receiver.close();
  }
}

/** The checks of a report with their outcome, one line each (a failing assertion shows them). */
const outcomes = (r: ClientReport) =>
  r.checks.map((c) => `${c.outcome} ${c.level} ${c.id}: ${c.reason ?? c.evidence[0]?.message ?? ''}`).join('\n');
const failing = (r: ClientReport) => r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

const FAULTS = Object.keys(CLIENT_FAULTS) as ClientFault[];
const runs = new Map<string, Promise<Run>>();

/** Every variant starts at once (one tenant each); each test awaits its own. */
function start(name: string, run: () => Promise<Run>): void {
  const p = run();
  // Awaited by its test; the handler only keeps a rejection from being reported before that.
  p.catch(() => {});
  runs.set(name, p);
}
const runOf = (name: string) => runs.get(name) as Promise<Run>;

beforeAll(async () => {
  // The default retry schedule: a notification a receiver refused comes again 5 s later, maybe while its run goes on.
  mock = await startMock({ rateLimit: 'off' });
  start('well-behaved', () => certify([]));
  for (const fault of FAULTS) start(fault, () => certify([fault]));
  start('no-walk', () => certify([], { walk: false }));
  start('no-subscribe', () => certify([], { subscribe: false }));
});
afterAll(async () => {
  await Promise.allSettled(runs.values());
  await mock?.close();
});

describe('client certification of the reference client', () => {
  it('certifies the well-behaved client: every check passes, each perturbation was applied', async () => {
    const { report, diagnostics } = await runOf('well-behaved');
    expect(
      report.checks.filter((c) => c.outcome !== 'pass').map((c) => c.id),
      `${outcomes(report)}\n${diagnostics}`,
    ).toEqual([]);
    expect(report).toMatchObject({ profile: 'certify', seed: SEED, certified: true, pending: [] });
    expect(report.verdict?.label).toBe('CERTIFIED');
    expect(report.mustRan).toBe(report.mustTotal);
    const kinds = new Set(report.perturbations.map((p) => p.kind));
    expect([...kinds].sort()).toEqual(['429', 'duplicate', 'hex-63', 'non-hex', 'raw-sensitive', 'wrong-key']);
    expect(report.notObservable.map((n) => n.id)).toEqual([
      'client.receiver-constant-time',
      'client.receiver-background',
      'client.versions-tested',
    ]);
  });

  it.each(FAULTS)('fails the client with the fault %s on exactly its check', async (fault) => {
    const { report, diagnostics } = await runOf(fault);
    const expected = CLIENT_FAULTS[fault].check;
    expect(failing(report), `${CLIENT_FAULTS[fault].does}\n${outcomes(report)}\n${diagnostics}`).toEqual([expected]);
    const check = report.checks.find((c) => c.id === expected);
    expect(check?.evidence.length).toBeGreaterThan(0);
    // A MUST failure withholds the certificate; a SHOULD failure does not, when every MUST check ran (a client that
    // gave up its subscription, say, left the receiver's checks unexercised).
    const certified = check?.level === 'SHOULD' && report.mustRan === report.mustTotal;
    expect(report.certified).toBe(certified);
    expect(report.verdict?.label).toBe(certified ? 'CERTIFIED' : 'NOT CERTIFIED');
  });

  it('does not certify a client that never walks a list: the walk checks are skipped, saying so', async () => {
    const { report, diagnostics } = await runOf('no-walk');
    expect(failing(report), `${outcomes(report)}\n${diagnostics}`).toEqual([]);
    for (const id of ['client.page-walk-stops', 'client.page-walk-complete', 'client.filter-encoding'])
      expect(report.checks.find((c) => c.id === id)).toMatchObject({
        outcome: 'skip',
        reason: expect.stringMatching(/^not exercised by the client's traffic: .+ would exercise it$/),
      });
    expect(report.certified).toBe(false);
    expect(report.verdict?.label).toBe('NOT CERTIFIED');
  });

  it('does not certify a client that never subscribes: the receiver and subscription checks are skipped, saying so', async () => {
    const { report, diagnostics } = await runOf('no-subscribe');
    expect(failing(report), `${outcomes(report)}\n${diagnostics}`).toEqual([]);
    const skipped = report.checks.filter((c) => c.outcome === 'skip').map((c) => c.id);
    // Its few requests may come before the first injected 429 (the seed decides): then the rate-limit checks too.
    const refused = report.perturbations.some((p) => p.kind === '429');
    expect(skipped).toEqual([
      ...(refused ? [] : ['client.retry-after-wait', 'client.retry-after-retries']),
      'client.receiver-accepts',
      'client.receiver-raw-body',
      'client.receiver-rejects-forged',
      'client.receiver-refuses-forged',
      'client.receiver-fast',
      'client.receiver-dedup',
      'client.reads-after-notification',
      'client.event-names-from-versions',
      'client.subscribes-offered-versions',
    ]);
    for (const c of report.checks.filter((x) => x.outcome === 'skip'))
      expect(c.reason).toMatch(/^not exercised by the client's traffic: /);
    expect(report.certified).toBe(false);
  });
});
