import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.js';
import { expectOneLineRefusal, opsapi } from './run-cli.js';

const SECRET = 'team-e2e-jwt-secret-0123456789abcdef';
const KEY = 'team-e2e-admin-key-0123456789';

/** The status of a `/v1` read with a token. */
async function readWith(url: string, token: string): Promise<number> {
  const res = await request(`${url}/v1/items/skus?pageSize=1`, { headers: { authorization: `Bearer ${token}` } });
  await res.body.dump();
  return res.statusCode;
}

describe('teams of a shared mock, driven by the CLI (opsapi team, --team-key)', () => {
  let mock: RunningMock;
  let at: string[];
  let admin: string[];
  let team: { id: string; name: string; orgPrefix: string; maxOrgs: number; teamKey: string };

  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: null, jwtSecret: SECRET, adminKey: KEY });
    at = ['--base-url', mock.url];
    admin = [...at, '--admin-key', KEY];
    const run = await opsapi(['team', 'create', '--name', 'CI of acme', '--org-prefix', 'acme-', '--json', ...admin]);
    expect(run.code, run.stderr).toBe(0);
    team = JSON.parse(run.stdout) as typeof team;
  });

  afterAll(async () => {
    await mock?.close();
  });

  it('creates a team with its key shown once (JSON for scripts, a line for people)', async () => {
    expect(team).toMatchObject({ name: 'CI of acme', orgPrefix: 'acme-', teamKey: expect.any(String) });
    const human = await opsapi(['team', 'create', '--name', 'partner', '--org-prefix', 'beta-', ...admin]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^team \S+ \(partner\): orgs starting with 'beta-'/);
    expect(human.stdout).toMatch(/team key \(shown once; .*\): \S{16,}\n$/);
  });

  it('refuses an overlapping prefix, and a call without the admin key, in one line with exit 2', async () => {
    const overlap = await opsapi(['team', 'create', '--name', 'eu', '--org-prefix', 'acme-eu', ...admin]);
    expectOneLineRefusal(overlap, 'team', /answered 409: .*overlaps/);
    const keyless = await opsapi(['team', 'list', ...at]);
    expectOneLineRefusal(keyless, 'team', /admin API needs a key .*: pass --admin-key/);
    const usage = await opsapi(['team', 'create', '--org-prefix', 'x-', ...admin]);
    expect(usage.code).toBe(2);
  });

  it('lists the teams without their keys', async () => {
    const run = await opsapi(['team', 'list', '--json', ...admin]);
    expect(run.code, run.stderr).toBe(0);
    const { teams } = JSON.parse(run.stdout) as { teams: { id: string; orgPrefix: string }[] };
    expect(teams.map((t) => t.orgPrefix)).toEqual(expect.arrayContaining(['acme-', 'beta-']));
    expect(run.stdout).not.toContain(team.teamKey);
    const human = await opsapi(['team', 'list', ...admin]);
    expect(human.stdout).toMatch(new RegExp(`^${team.id} +CI of acme +acme- `, 'm'));
  });

  it('mints tokens with --team-key for the team orgs only, without the JWT secret', async () => {
    const env = { OPSAPI_JWT_SECRET: '' };
    const own = await opsapi(['token', '--team-key', team.teamKey, '--org', 'acme-1', '--admin', ...at], { env });
    expect(own.code, own.stderr).toBe(0);
    expect(await readWith(mock.url, own.stdout.trim())).toBe(200);
    const other = await opsapi(['token', '--team-key', team.teamKey, '--org', 'beta-1', '--admin', ...at], { env });
    expectOneLineRefusal(other, 'token', /the team key does not reach this \(.*acme-.*\)/);
    const forever = await opsapi(['token', '--team-key', team.teamKey, '--org', 'acme-1', '--expires-in', '2d', ...at]);
    expectOneLineRefusal(forever, 'token', /answered 400: .*expiresIn/);
  });

  it('runs opsapi conform and coverage with --team-key on one of the team orgs, the key never printed', async () => {
    const conform = await opsapi([
      'conform',
      ...at,
      '--team-key',
      team.teamKey,
      '--org',
      'acme-conform',
      '--only',
      'permissions.403-code',
    ]);
    expect(conform.code, `${conform.stdout}\n${conform.stderr}`).toBe(0);
    expect(conform.stdout).toMatch(/PASS\s+MUST\s+permissions\.403-code/);
    expect(`${conform.stdout}${conform.stderr}`).not.toContain(team.teamKey);
    const coverage = await opsapi(['coverage', ...at, '--org', 'acme-conform'], {
      env: { OPSAPI_TEAM_KEY: team.teamKey },
    });
    expect(coverage.code, coverage.stderr).toBe(0);
    expect(coverage.stdout).toMatch(/operations/i);
  });

  it('runs opsapi learn with --team-key on one of the team orgs, the key never printed', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'opsapi-team-learn-')), 'decisions.json');
    const learn = await opsapi(['learn', ...at, '--team-key', team.teamKey, '--org', 'acme-learn', '--out', out]);
    expect(learn.code, learn.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('decisions');
    expect(`${learn.stdout}${learn.stderr}`).not.toContain(team.teamKey);
  });

  it('has opsapi conform say in one line that a team key does not reach a fresh org', async () => {
    const run = await opsapi(['conform', ...at, '--team-key', team.teamKey, '--only', 'permissions.403-code']);
    expectOneLineRefusal(run, 'conform', /team key does not reach this .*--org/);
  });

  it('revokes a team: its key and its tokens stop working at once', async () => {
    const minted = await opsapi(['token', '--team-key', team.teamKey, '--org', 'acme-2', '--admin', ...at]);
    const token = minted.stdout.trim();
    expect(await readWith(mock.url, token)).toBe(200);
    const revoke = await opsapi(['team', 'revoke', team.id, ...admin]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toMatch(`revoked team ${team.id}`);
    expect(await readWith(mock.url, token)).toBe(401);
    const again = await opsapi(['token', '--team-key', team.teamKey, '--org', 'acme-2', ...at]);
    expectOneLineRefusal(again, 'token', /refused the team key: --team-key .* unknown to it or was revoked/);
    const trigger = await opsapi(['trigger', 'Warehouse.Shipment.Shipped', '--org', 'acme-2', ...at], {
      env: { OPSAPI_TEAM_KEY: team.teamKey },
    });
    expectOneLineRefusal(trigger, 'trigger', /refused the team key/);
    const unknown = await opsapi(['team', 'revoke', team.id, ...admin]);
    expectOneLineRefusal(unknown, 'team', /answered 404: .*does not exist/);
  });
});
