import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY_HEADER } from '../../common/admin-key.js';
import { startRedisServer } from '../../common/redis-server.js';
import { TEAM_KEY_HEADER } from '../../common/team-key.js';
import { redisAvailability } from '../../test/support/redis.js';
import { type RunningMock, startMock } from '../server.js';

const KEY = 'admin-key-of-the-team-e2e-0123456789';
const operator = { [ADMIN_KEY_HEADER]: KEY };
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One call over a real socket; the status, headers and parsed body. */
async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const createTeam = (mock: RunningMock, body: object) => call(mock.url, 'POST', '/__mock/teams', operator, body);
const mint = async (mock: RunningMock, teamKey: string, org: string) =>
  call(mock.url, 'POST', '/__mock/tokens', { [TEAM_KEY_HEADER]: teamKey }, { org, roles: ['App.Admin'] });
const secretOf = (mock: RunningMock, token: string) =>
  call(mock.url, 'GET', '/__mock/webhook-secret', { authorization: `Bearer ${token}` });

describe('teams kept with --state', () => {
  it('keeps teams across a restart: the key still mints, tokens still work, a revocation holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opsapi-teams-'));
    dirs.push(dir);
    const options = { port: 0, adminKey: KEY, stateFile: join(dir, 'state.json'), rateLimit: null };
    let mock = await startMock(options);
    const kept = (await createTeam(mock, { name: 'Kept', orgPrefix: 'kept-', maxOrgs: 3 })).body;
    const gone = (await createTeam(mock, { name: 'Gone', orgPrefix: 'gone-' })).body;
    const token = (await mint(mock, kept.teamKey, 'kept-1')).body.token;
    const goneToken = (await mint(mock, gone.teamKey, 'gone-1')).body.token;
    expect((await call(mock.url, 'DELETE', `/__mock/teams/${gone.id}`, operator)).status).toBe(204);
    await mock.close();

    mock = await startMock(options);
    try {
      const list = await call(mock.url, 'GET', '/__mock/teams', operator);
      expect(list.body.teams).toEqual([
        { id: kept.id, name: 'Kept', orgPrefix: 'kept-', maxOrgs: 3, createdAt: kept.createdAt },
      ]);
      expect((await mint(mock, kept.teamKey, 'kept-2')).status).toBe(201);
      expect((await secretOf(mock, token)).status).toBe(200);
      expect((await mint(mock, gone.teamKey, 'gone-2')).status).toBe(401);
      expect((await secretOf(mock, goneToken)).status).toBe(401);
    } finally {
      await mock.close();
    }
  });
});

describe('one team churning its orgs', () => {
  it("evicts only its own least recently used org, never another team's nor an org of no team", async () => {
    const mock = await startMock({ port: 0, adminKey: KEY, maxTenants: 6, rateLimit: null });
    try {
      const churner = (await createTeam(mock, { name: 'Churner', orgPrefix: 'churn-', maxOrgs: 2 })).body;
      const calm = (await createTeam(mock, { name: 'Calm', orgPrefix: 'calm-', maxOrgs: 2 })).body;
      const calmToken = (await mint(mock, calm.teamKey, 'calm-1')).body.token;
      const clock = (token: string) =>
        call(mock.url, 'POST', '/__mock/clock', { authorization: `Bearer ${token}` }, { advanceSeconds: 60 });
      // A write each: an evicted one says so on its next request (no --state).
      expect((await clock(calmToken)).status).toBe(200);
      const first = (await mint(mock, churner.teamKey, 'churn-0')).body.token;
      expect((await clock(first)).status).toBe(200);
      for (let i = 1; i <= 8; i++) {
        const token = (await mint(mock, churner.teamKey, `churn-${i}`)).body.token;
        expect((await secretOf(mock, token)).status).toBe(200);
      }
      const orgs = mock.control.orgs();
      expect(orgs).toContain('calm-1');
      expect(orgs.filter((org) => org.startsWith('churn-'))).toEqual(['churn-7', 'churn-8']);
      const back = await secretOf(mock, first);
      expect(back.headers.get('warning')).toMatch(/tenant churn-0 was evicted/);
      expect(mock.control.orgs()).toContain('calm-1');
    } finally {
      await mock.close();
    }
  });
});

const availability = redisAvailability();

describe.skipIf(!availability.run)('teams shared through Redis (--redis)', () => {
  it('works on the other replica: created on one, minted with on the other, revoked on one, refused on the other', async () => {
    const redis = await startRedisServer();
    const options = { port: 0, adminKey: KEY, redis: redis.url, rateLimit: null };
    const a = await startMock(options);
    const b = await startMock(options);
    try {
      const team = (await createTeam(a, { name: 'Shared', orgPrefix: 'shared-' })).body;
      const minted = await mint(b, team.teamKey, 'shared-1');
      expect(minted.status).toBe(201);
      expect((await secretOf(a, minted.body.token)).status).toBe(200);
      expect((await call(b.url, 'GET', '/__mock/teams', operator)).body.teams.map((t: { id: string }) => t.id)).toEqual(
        [team.id],
      );
      expect((await call(a.url, 'DELETE', `/__mock/teams/${team.id}`, operator)).status).toBe(204);
      // Told through Redis's publish: bounded wait for the message, no fixed sleep.
      const deadline = Date.now() + 2000;
      while ((await secretOf(b, minted.body.token)).status !== 401 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect((await secretOf(b, minted.body.token)).status).toBe(401);
      expect((await mint(b, team.teamKey, 'shared-2')).status).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await redis.stop();
    }
  });
});
