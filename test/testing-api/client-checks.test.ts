/**
 * `t.clientChecks` (docs/DESIGN.md, "Client certification"), without client traffic: its options checked before
 * anything starts, the handle's lifecycle (restart, reset, stop, a closed mock), and what `assertPassed` says of a
 * client that exercised nothing. The verdicts over traffic are in client-checks.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type TestMock } from 'opsapi/testing';

let mock: TestMock;

beforeAll(async () => {
  mock = await startMock({ rateLimit: 'off' });
});
afterAll(() => mock?.close());

describe('t.clientChecks.start', () => {
  const BAD: [what: string, options: unknown, error: typeof TypeError | typeof RangeError, says: RegExp][] = [
    ['an unknown option', { profle: 'certify' }, TypeError, /unknown option profle; did you mean profile\?/],
    ['an unknown profile', { profile: 'audit' }, RangeError, /option profile must be 'observe' or 'certify'/],
    ['a negative seed', { seed: -1 }, RangeError, /option seed must be an integer from 0 to 2147483647, got -1/],
    [
      'a delay out of range',
      { retryAfterSeconds: 61 },
      RangeError,
      /retryAfterSeconds must be an integer from 1 to 60/,
    ],
    ['a bound of the wrong kind', { answerWithinMs: '50' }, TypeError, /answerWithinMs must be an integer/],
    ['options that are not an object', 'certify', TypeError, /expected an object of options, got 'certify'/],
  ];
  it.each(BAD)('refuses %s, naming it, and starts nothing', async (_what, options, error, says) => {
    const t = mock.tenant();
    const refused = t.clientChecks.start(options as never);
    await expect(refused).rejects.toThrow(error);
    await expect(t.clientChecks.start(options as never)).rejects.toThrow(says);
    expect(t.control.clientChecks.report('json')).toBeNull();
  });

  it('starts with the options given and tells the profile, the seed and when', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start({ profile: 'certify', seed: 42, retryAfterSeconds: 1, answerWithinMs: 100 });
    expect(cc).toMatchObject({ profile: 'certify', seed: 42 });
    expect(Date.parse(cc.startedAt)).toBeGreaterThan(0);
    const report = await cc.report();
    expect(report).toMatchObject({ profile: 'certify', seed: 42, pending: [], perturbations: [] });
    expect(report.checks).toHaveLength(17);
    expect(report.options).toMatchObject({ answerWithinMs: 100, retryAfterSeconds: 1 });
  });

  it('draws a seed when none is given', async () => {
    const cc = await mock.tenant().clientChecks.start();
    expect(cc.profile).toBe('observe');
    expect(Number.isInteger(cc.seed)).toBe(true);
  });
});

describe('a client that exercised nothing', () => {
  it('settles at once and passes (no MUST check failed), but is no certificate: every check is a skip that says why', async () => {
    const cc = await mock.tenant().clientChecks.start({ profile: 'certify' });
    const settled = await cc.settled({ timeoutMs: 1000 });
    expect(settled.pending).toEqual([]);
    expect(settled.certified).toBe(false);
    expect(settled.checks.every((c) => c.outcome === 'skip' && (c.reason ?? '').length > 0)).toBe(true);
    await expect(cc.assertPassed()).resolves.toMatchObject({ certified: false });
    const certify = cc.assertPassed({ certify: true });
    await expect(certify).rejects.toThrow(
      /^client checks \(profile certify, seed \d+\): \d+ MUST check\(s\) not exercised\n/,
    );
    await expect(cc.assertPassed({ certify: true })).rejects.toThrow(
      /\nNOT EXERCISED MUST client\.auth-bearer: .*\n {2}\S/,
    );
  });

  it('refuses options of settled and assertPassed it does not know', async () => {
    const cc = await mock.tenant().clientChecks.start();
    await expect(cc.settled({ timeout: 5 } as never)).rejects.toThrow(
      /cc\.settled: unknown option timeout; did you mean timeoutMs\?/,
    );
    await expect(cc.assertPassed({ strikt: true } as never)).rejects.toThrow(/did you mean strict\?/);
  });
});

describe('the lifecycle of a handle', () => {
  it('stops with the final report; the handle then says the checks ended', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start();
    const final = await cc.stop();
    expect(final.checks).toHaveLength(17);
    expect(t.control.clientChecks.report('json')).toBeNull();
    await expect(cc.report()).rejects.toThrow(
      /clientChecks\.report: the client checks ended \(stopped, or the tenant was reset\)/,
    );
    await expect(cc.stop()).rejects.toThrow(/clientChecks\.stop: the client checks ended/);
  });

  it('ends with a reset of the tenant', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start();
    await t.reset();
    await expect(cc.settled()).rejects.toThrow(/clientChecks\.settled: the client checks ended/);
  });

  it('tells a handle its checks were started again', async () => {
    const t = mock.tenant();
    const first = await t.clientChecks.start({ seed: 1 });
    const second = await t.clientChecks.start({ seed: 2 });
    await expect(first.report()).rejects.toThrow(/clientChecks\.report: the client checks were started again/);
    await expect(second.report()).resolves.toMatchObject({ seed: 2 });
  });

  it('refuses to start on a closed mock', async () => {
    const closed = await startMock({ rateLimit: 'off' });
    const t = closed.tenant();
    await closed.close();
    await expect(t.clientChecks.start()).rejects.toThrow(/clientChecks\.start: the mock is closed/);
  });
});
