import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims, DEFAULT_JWT_SECRET, mintToken, startMockServer, type RunningMock } from '../../index.js';
import { expectOneLineRefusal } from '../../test/support/cli-command.js';
import { runConformance } from '../orchestration/runner.js';
import { opsapi, stderrLines } from './support/cli.js';
import { startExpiringGate } from './support/expiring-gate.js';

/**
 * Each credential of a run is proved by one read before the checks, and one refused later (expired) is renewed once
 * by --token-command or stops the run: exit 2 naming it, never failed checks. The target is a mock with its admin API
 * off (a deployment: the runner mints nothing) listening in this process; the CLI is a process of its own.
 */
const dir = mkdtempSync(join(tmpdir(), 'opsapi-credentials-'));
let bare: RunningMock;
let token: string;

/** A token of a tenant, and one of the same claims that expired already (what the first becomes at its expiry). */
async function expiringToken(org: string): Promise<{ token: string; expired: string }> {
  return {
    token: await mintToken(DEFAULT_JWT_SECRET, adminClaims(org)),
    expired: await mintToken(DEFAULT_JWT_SECRET, adminClaims(org), -60),
  };
}

/** A --token-command printing the given tokens, one per run of it (nothing once they run out), and its run count. */
function tokenCommand(name: string, tokens: string[]): { command: string; runs: () => number } {
  const home = mkdtempSync(join(dir, `${name}-`));
  writeFileSync(join(home, 'tokens'), `${tokens.join('\n')}\n`);
  writeFileSync(
    join(home, 'print-token.sh'),
    'd="$(dirname "$0")"; n=$(($(cat "$d/count" 2>/dev/null || echo 0) + 1)); echo "$n" > "$d/count"; sed -n "$n"p "$d/tokens"\n',
  );
  return {
    command: `sh ${join(home, 'print-token.sh')}`,
    runs: () => Number(readFileSync(join(home, 'count'), 'utf8').trim()),
  };
}

beforeAll(async () => {
  bare = await startMockServer({ port: 0, admin: false, jwtSecret: DEFAULT_JWT_SECRET });
  token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('conform-credentials'));
}, 60_000);

afterAll(async () => {
  await bare?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('opsapi conform proves each credential before the checks', () => {
  it('exits 2 with one line naming --token and the problem detail when the target refuses it', async () => {
    const forged = await mintToken('not-the-secret-of-this-mock-0123456789', adminClaims('conform-credentials'));
    const run = await opsapi(['conform', '--base-url', bare.url, '--token', forged, '--only', 'lists.defaults']);
    expectOneLineRefusal(run, 'conform', /^opsapi conform: the target refused --token: \S.*$/);
    expect(run.stderr).not.toContain(forged);
  });

  it.each([
    ['--limited-token', ['--limited-token', 'not.a-valid.token']],
    ['--other-tenant-token', ['--other-tenant-token', 'not.a-valid.token']],
    ['--api-key', ['--api-key', 'opsk_not-a-key-of-this-tenant']],
  ])('exits 2 naming %s when the target refuses it', async (name, flags) => {
    const run = await opsapi(['conform', '--base-url', bare.url, '--token', token, ...flags, '--only', 'lists']);
    expectOneLineRefusal(run, 'conform', new RegExp(`^opsapi conform: the target refused ${name}: \\S`));
  });

  it('takes a token lacking every permission and a valid API key sent with the token', async () => {
    const reader = await mintToken(DEFAULT_JWT_SECRET, { org: 'conform-credentials', roles: [], permissions: [] });
    const created = await fetch(`${bare.url}/v1/access/apiKeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'conform-credentials' }),
    });
    const { key } = (await created.json()) as { key: string };
    const run = await opsapi(
      ['conform', '--base-url', bare.url, '--limited-token', reader, '--api-key', key, '--only', 'lists.defaults'],
      { OPSAPI_TOKEN: token },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('lets the auth checks send missing, forged and unknown credentials on purpose', async () => {
    const run = await opsapi(['conform', '--base-url', bare.url, '--token', token, '--only', 'auth']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS\s+MUST\s+auth\.401-invalid-credentials/);
  });

  it('gives opsapi learn the same proof', async () => {
    const run = await opsapi([
      'learn',
      '--base-url',
      bare.url,
      '--token',
      'not.a-valid.token',
      '--out',
      join(dir, 'd'),
    ]);
    expectOneLineRefusal(run, 'learn', /^opsapi learn: the target refused --token: \S/);
  });

  it('renews a refused token of --token-command once before the checks', async () => {
    const expired = await mintToken(DEFAULT_JWT_SECRET, adminClaims('conform-credentials'), -60);
    const renewing = tokenCommand('start', [expired, token]);
    const run = await opsapi([
      'conform',
      '--base-url',
      bare.url,
      '--token-command',
      renewing.command,
      '--only',
      'lists.defaults',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(renewing.runs()).toBe(2);
    const refused = tokenCommand('start-refused', [expired, expired]);
    const again = await opsapi(['conform', '--base-url', bare.url, '--token-command', refused.command]);
    expectOneLineRefusal(again, 'conform', /^opsapi conform: the target refused the token of --token-command: /);
  });
});

// Through a gate that hands the mock an expired token in place of the run's own after its proof read.
describe('a credential that expires during the run', () => {
  it('stops the run with exit 2 naming --token, not with failed checks', async () => {
    const short = await expiringToken('conform-expiry-a');
    const gate = await startExpiringGate(bare.url, short.token, short.expired);
    try {
      const file = join(dir, 'expired.json');
      const run = await opsapi([
        'conform',
        '--base-url',
        gate.url,
        '--token',
        short.token,
        '--only',
        'lists.defaults',
        '--report',
        file,
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(stderrLines(run).at(-1)).toMatch(
        /^opsapi conform: the target refused --token during the run \(GET \/v1\/\S+ answered 401; --token-command renews a token that expires\): The access token has expired\.$/,
      );
      expect(run.stdout).toBe('');
      expect(() => readFileSync(file)).toThrow();
    } finally {
      await gate.close();
    }
  });

  it('renews it once through --token-command, and the run goes on', async () => {
    const short = await expiringToken('conform-expiry-b');
    const renewing = tokenCommand('renew', [short.token, token]);
    const gate = await startExpiringGate(bare.url, short.token, short.expired);
    try {
      const args = ['conform', '--base-url', gate.url, '--token-command', renewing.command, '--only', 'lists.defaults'];
      const run = await opsapi(args);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/PASS\s+MUST\s+lists\.defaults/);
      expect(renewing.runs()).toBe(2);
    } finally {
      await gate.close();
    }
  });

  it('stops the run when the renewed token is refused too', async () => {
    const short = await expiringToken('conform-expiry-c');
    const refused = tokenCommand('renew-refused', [short.token, short.expired]);
    const gate = await startExpiringGate(bare.url, short.token, short.expired);
    try {
      const args = ['conform', '--base-url', gate.url, '--token-command', refused.command, '--only', 'lists.defaults'];
      const run = await opsapi(args);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(stderrLines(run).at(-1)).toMatch(
        /^opsapi conform: the target refused the token of --token-command during the run, also after running --token-command again \(GET \/v1\/\S+ answered 401\): The access token has expired\.$/,
      );
    } finally {
      await gate.close();
    }
  });
});

describe('tokens the runner mints on a mock', () => {
  let admin: RunningMock;
  beforeAll(async () => {
    admin = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('are proved by one read each before the checks', async () => {
    const before = new Set(admin.control.orgs());
    const report = await runConformance({ baseUrl: admin.url, only: ['lists.defaults'] });
    expect(report.exitCode).toBe(0);
    const made = admin.control.orgs().filter((org) => !before.has(org));
    const main = made.find((org) => made.includes(`${org}-other`)) as string;
    const proofs = (org: string) =>
      admin.control
        .tenant(org)
        .coverage({ operations: ['getError'] })
        .operations.reduce((n, op) => n + op.called, 0);
    // The main and the limited token in the main tenant, the other tenant's, the rate-limit probe's.
    expect([proofs(main), proofs(`${main}-other`), proofs(`${main}-rl`)]).toEqual([2, 1, 1]);
  });
});
