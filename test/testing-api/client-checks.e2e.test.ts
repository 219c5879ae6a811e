/**
 * `t.clientChecks` over a client's traffic on a real socket (docs/DESIGN.md, "Client certification"): `settled` waits
 * for what is pending (an injected 429 awaiting its retry) and says what, `assertPassed` lists the MUST failures with
 * their evidence, `strict` adds the SHOULD ones. The reference clients of every check are in test/client-certification/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type TestMock, type TestTenant } from 'opsapi/testing';

let mock: TestMock;

beforeAll(async () => {
  mock = await startMock({ rateLimit: 'off' });
});
afterAll(() => mock?.close());

/** A `/v1` read of the client under test, with the headers given (default: its bearer token). */
async function read(t: TestTenant, path: string, headers?: Record<string, string>) {
  const res = await fetch(`${mock.url}${path}`, {
    headers: headers ?? { authorization: `Bearer ${await t.token()}` },
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

/** Reads until the profile certify injects its 429 (one request in every 5 to 9): the tenth at the latest. */
async function readUntil429(t: TestTenant, path: string) {
  for (let i = 0; i < 10; i++) {
    const answer = await read(t, path);
    if (answer.status === 429) return answer;
  }
  throw new Error('no 429 was injected in 10 requests');
}

describe('cc.assertPassed', () => {
  it('throws on a MUST failure, naming the check and its evidence', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start({ readWithinMs: 200 });
    expect((await read(t, '/v1/items/skus?pageSize=1')).status).toBe(200);
    expect((await read(t, '/v1/items/skus?pageSize=1', { authorization: await t.token() })).status).toBe(401);
    const error = await cc.assertPassed().then(
      () => new Error('assertPassed resolved'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/^client checks \(profile observe, seed \d+\): 1 MUST check\(s\) failed\n/);
    expect(error.message).toMatch(/\nFAIL MUST client\.auth-bearer: .*\n {2}- /);
    expect(error.message).not.toContain(await t.token());
    const report = await cc.stop();
    expect(report.checks.find((c) => c.id === 'client.auth-bearer')).toMatchObject({ outcome: 'fail' });
  });
});

describe('cc.settled under the profile certify', () => {
  it('waits for the retry of an injected 429, says what is pending when it times out, and passes once retried', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start({ profile: 'certify', retryAfterSeconds: 1, readWithinMs: 2000 });
    const path = '/v1/items/skus?pageSize=2';
    const refused = await readUntil429(t, path);
    expect(refused.retryAfter).toBe('1');
    await expect(cc.settled({ timeoutMs: 0 })).rejects.toThrow(
      /^clientChecks\.settled: still 1 observation\(s\) pending after 0 ms:\n {2}429 of request \d+ \(GET \/v1\/items\/skus\): not sent again yet/,
    );
    // The client honours the delay the answer indicated, then sends the request again.
    await new Promise((resolve) => setTimeout(resolve, Number(refused.retryAfter) * 1000 + 50));
    expect((await read(t, path)).status).toBe(200);
    const report = await cc.assertPassed({ strict: true });
    const outcome = (id: string) => report.checks.find((c) => c.id === id)?.outcome;
    expect(outcome('client.retry-after-wait')).toBe('pass');
    expect(outcome('client.retry-after-retries')).toBe('pass');
    expect(report.perturbations).toEqual([expect.objectContaining({ kind: '429' })]);
  });

  it('settles without the retry once its window passed: a SHOULD failure, thrown only under strict', async () => {
    const t = mock.tenant();
    const cc = await t.clientChecks.start({ profile: 'certify', retryAfterSeconds: 1, readWithinMs: 100 });
    await readUntil429(t, '/v1/items/skus?pageSize=3');
    const report = await cc.assertPassed({ timeoutMs: 10_000 });
    expect(report.pending).toEqual([]);
    expect(report.checks.find((c) => c.id === 'client.retry-after-retries')?.outcome).toBe('fail');
    await expect(cc.assertPassed({ strict: true })).rejects.toThrow(
      /: 1 SHOULD check\(s\) failed\nFAIL SHOULD client\.retry-after-retries: /,
    );
  });
});
