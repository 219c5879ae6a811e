/**
 * `opsapi client-checks start|report|stop` against a running mock (docs/DESIGN.md, "Client certification"): a client in
 * any language is judged by its traffic; the command starts the checks, reads the report (waiting for what is
 * pending), writes it as JSON, JUnit and HTML, and gates: exit 1 on a MUST failure (under --certify also on a MUST
 * check not exercised), 2 when it cannot tell.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../common/closed-port.js';
import { startMock, type RunningMock } from '../../mock/server.js';
import { expectOneLineRefusal, opsapi, stderrLines } from './run-cli.js';

const ADMIN_KEY = 'client-checks-e2e-admin-key-0123456789';

let mock: RunningMock;
let counter = 0;
const dir = mkdtempSync(join(tmpdir(), 'opsapi-client-checks-'));

beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: null });
});

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh tenant of a mock: its admin token, and a client that sends `/v1` requests with the headers given. */
async function tenant(on: RunningMock = mock) {
  counter += 1;
  const control = on.control.tenant(`client-checks-cli-${process.pid}-${counter}`);
  const token = await control.token();
  const send = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) => {
    const res = await fetch(`${on.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after') };
  };
  const at = ['--base-url', on.url, '--token', token];
  return { control, token, send, at };
}

describe('opsapi client-checks over a client whose traffic keeps the rules it exercises', () => {
  let t: Awaited<ReturnType<typeof tenant>>;

  beforeAll(async () => {
    t = await tenant();
    const start = await opsapi(['client-checks', 'start', ...t.at, '--seed', '7', '--read-within-ms', '500']);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/^client checks started: profile observe, seed 7 /);
    expect((await t.send('/v1/items/skus?pageSize=5&pageNumber=1')).status).toBe(200);
  });

  it('prints the summary in the runner wording, writes the three formats, and exits 0 (no MUST failure)', async () => {
    const files = ['report.json', 'report.xml', 'report.html'].map((name) => join(dir, `ok-${name}`));
    const run = await opsapi(['client-checks', 'report', ...t.at, ...files.flatMap((f) => ['--report', f])]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^opsapi client-checks \S+ \(contract \S+\) of /);
    expect(run.stdout).toContain('profile observe, seed 7');
    expect(run.stdout).toMatch(/ {2}PASS {2}MUST {3}client\.auth-bearer\n/);
    expect(run.stdout).toMatch(/SKIP {2}MUST {3}client\.receiver-accepts - /);
    expect(run.stdout).toContain('Not observable from outside');
    expect(run.stdout).toMatch(/ {2}verdict: PASSED: no MUST check failed/);
    expect(stderrLines(run)).toEqual(files.map((f) => `opsapi client-checks: wrote ${f}`));
    const json = JSON.parse(readFileSync(files[0] as string, 'utf8')) as {
      profile: string;
      seed: number;
      checks: { id: string; outcome: string }[];
      notObservable: unknown[];
    };
    expect(json).toMatchObject({ profile: 'observe', seed: 7 });
    expect(json.checks.find((c) => c.id === 'client.auth-bearer')?.outcome).toBe('pass');
    expect(json.notObservable.length).toBeGreaterThan(0);
    const xml = readFileSync(files[1] as string, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('classname="opsapi.client.requests"');
    const html = readFileSync(files[2] as string, 'utf8');
    expect(html).toContain('Operations Platform API client certification report');
    expect(html).not.toContain(t.token);
  });

  it('exits 1 under --certify: MUST checks the traffic did not exercise, said on stderr', async () => {
    const run = await opsapi(['client-checks', 'report', ...t.at, '--certify']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\n {2}certification: NOT CERTIFIED: \d+ MUST checks were skipped: client\./);
    expect(run.stdout).toMatch(/\n {2}exit 1: --certify: \d+ MUST checks were skipped: client\./);
  });

  it('stops with the final report, after which nothing runs (exit 2, one line)', async () => {
    const stop = await opsapi(['client-checks', 'stop', ...t.at]);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain('verdict: PASSED');
    const after = await opsapi(['client-checks', 'report', ...t.at]);
    expectOneLineRefusal(after, 'client-checks', /no client checks are running for the token's tenant/);
  });
});

describe('opsapi client-checks over a client that breaks a MUST rule', () => {
  it('fails client.auth-bearer (a token without its scheme) with evidence, and exits 1', async () => {
    const t = await tenant();
    expect((await opsapi(['client-checks', 'start', ...t.at])).code).toBe(0);
    expect((await t.send('/v1/items/skus', { authorization: t.token })).status).toBe(401);
    const file = join(dir, 'bearer.json');
    const run = await opsapi(['client-checks', 'stop', ...t.at, '--report', file]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}MUST {3}client\.auth-bearer\n/);
    expect(run.stdout).toContain('verdict: FAILED');
    expect(run.stdout).toContain('  exit 1: 1 MUST check(s) failed: client.auth-bearer\n');
    expect(stderrLines(run)).toEqual([`opsapi client-checks: wrote ${file}`]);
    expect(readFileSync(file, 'utf8')).not.toContain(t.token);
  });
});

describe('opsapi client-checks report --wait under the profile certify', () => {
  it('waits until the injected 429 was retried after its delay, then reports it passed', async () => {
    const t = await tenant();
    const start = ['client-checks', 'start', ...t.at, '--profile', 'certify', '--read-within-ms', '3000'];
    expect((await opsapi(start)).code).toBe(0);
    // One request in every 5 to 9 is answered 429: the tenth at the latest.
    let refused: { status: number; retryAfter: string | null } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const answer = await t.send('/v1/items/skus?pageSize=1');
      if (answer.status === 429) refused = answer;
    }
    expect(refused?.retryAfter).toBe('1');
    const report = opsapi(['client-checks', 'report', ...t.at, '--wait', '20s', '--report', join(dir, 'wait.json')]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await t.send('/v1/items/skus?pageSize=1')).status).toBe(200);
    const run = await report;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS {2}MUST {3}client\.retry-after-wait\n/);
    expect(run.stdout).toMatch(/PASS {2}SHOULD {1}client\.retry-after-retries\n/);
    const json = JSON.parse(readFileSync(join(dir, 'wait.json'), 'utf8')) as {
      pending: unknown[];
      perturbations: { kind: string }[];
    };
    expect(json.pending).toEqual([]);
    expect(json.perturbations.map((p) => p.kind)).toEqual(['429']);
    // Settled, and no SHOULD check failed: only the MUST checks the client never exercised keep it from a certificate.
    const stop = await opsapi(['client-checks', 'stop', ...t.at, '--wait', '5s', '--strict', '--certify']);
    expect(stop.code, stop.stderr).toBe(1);
    expect(stop.stdout).toContain('  certification: NOT CERTIFIED: ');
    expect(stop.stdout).not.toContain('exit 1: --strict');
    expect(stop.stdout).toMatch(/\n {2}exit 1: --certify: \d+ MUST checks were skipped: /);
  });
});

describe('opsapi client-checks refuses, in one line with exit 2', () => {
  it('a command line without a token, with a bad flag, or with a report name it cannot write', async () => {
    expectOneLineRefusal(
      await opsapi(['client-checks', 'report', '--base-url', mock.url], { env: { OPSAPI_TOKEN: '' } }),
      'client-checks',
      /needs --token \(or OPSAPI_TOKEN\)/,
    );
    const t = await tenant();
    expectOneLineRefusal(
      await opsapi(['client-checks', 'report', ...t.at, '--report', join(dir, 'x.txt')]),
      'client-checks',
      /--report .*x\.txt: use a \.json, \.xml or \.html file name/,
    );
    const profile = await opsapi(['client-checks', 'start', ...t.at, '--profile', 'audit']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/--profile.*Allowed choices are observe, certify/);
    const seed = await opsapi(['client-checks', 'start', ...t.at, '--seed', '-1']);
    expect(seed.code).toBe(2);
  });

  it('no checks running for the tenant', async () => {
    const t = await tenant();
    for (const sub of ['report', 'stop'])
      expectOneLineRefusal(
        await opsapi(['client-checks', sub, ...t.at]),
        'client-checks',
        /no client checks are running for the token's tenant.*start them with opsapi client-checks start/,
      );
  });

  it('a token the mock refuses', async () => {
    expectOneLineRefusal(
      await opsapi(['client-checks', 'start', '--base-url', mock.url, '--token', 'not-a-token']),
      'client-checks',
      /the mock refused the token \(401.*\): pass the tenant's access token in --token/,
    );
  });

  it('an unreachable mock', async () => {
    const port = await closedPort();
    expectOneLineRefusal(
      await opsapi(['client-checks', 'start', '--base-url', `http://127.0.0.1:${port}`, '--token', 'x']),
      'client-checks',
      /cannot reach http:\/\/127\.0\.0\.1:\d+/,
    );
  });
});

describe('opsapi client-checks on a mock with an admin key', () => {
  let keyed: RunningMock;

  beforeAll(async () => {
    keyed = await startMock({ port: 0, rateLimit: null, adminKey: ADMIN_KEY });
  });
  afterAll(async () => {
    await keyed?.close();
  });

  it("needs the key with a token that is not the tenant's App.Admin one, and works with it", async () => {
    const t = await tenant(keyed);
    const limited = await t.control.token({ roles: [] });
    const at = ['--base-url', keyed.url, '--token', limited];
    expectOneLineRefusal(
      await opsapi(['client-checks', 'start', ...at]),
      'client-checks',
      /admin API needs a key .*: pass --admin-key/,
    );
    expectOneLineRefusal(
      await opsapi(['client-checks', 'start', ...at, '--admin-key', 'not-the-key']),
      'client-checks',
      /refused the key: --admin-key/,
    );
    const start = await opsapi(['client-checks', 'start', ...at, '--admin-key', ADMIN_KEY]);
    expect(start.code, start.stderr).toBe(0);
    const stop = await opsapi(['client-checks', 'stop', ...at], { env: { OPSAPI_ADMIN_KEY: ADMIN_KEY } });
    expect(stop.code, stop.stderr).toBe(0);
  });
});
