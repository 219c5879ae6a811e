import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY_HEADER } from '../../common/admin-key.js';
import { TEAM_KEY_HEADER } from '../../common/team-key.js';
import { catalogEntry } from '../../spec/errors/index.js';
import { ALL_PERMISSIONS } from '../../spec/operations/index.js';
import { accessOf } from '../admin/access.js';
import { registeredAdminRoutes } from './admin-routes.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

const KEY = 'admin-key-of-the-team-tests-0123456789';
const operator = { [ADMIN_KEY_HEADER]: KEY };

/** Creates a team as the operator; its answer. */
async function createTeam(h: InjectHarness, body: object) {
  return h.call('POST', '/__mock/teams', { token: null, headers: operator, body });
}

/** A token minted with a team key (the answer). */
function mint(h: InjectHarness, teamKey: string, body: object) {
  return h.call('POST', '/__mock/tokens', { token: null, headers: { [TEAM_KEY_HEADER]: teamKey }, body });
}

describe('teams of a shared mock (--admin-key)', () => {
  let h: InjectHarness;
  let acme: { id: string; teamKey: string };
  let globex: { id: string; teamKey: string };

  beforeAll(async () => {
    h = await injectHarness({ adminKey: KEY, maxTenants: 100 });
    const a = await createTeam(h, { name: 'Acme', orgPrefix: 'acme-', maxOrgs: 5 });
    const g = await createTeam(h, { name: 'Globex', orgPrefix: 'globex-' });
    expect([a.status, g.status]).toEqual([201, 201]);
    acme = a.body;
    globex = g.body;
  });

  afterAll(async () => {
    await h?.close();
  });

  it('creates a team with its key shown once, lists teams without keys, and applies the default maxOrgs', async () => {
    expect(acme).toMatchObject({
      name: 'Acme',
      orgPrefix: 'acme-',
      maxOrgs: 5,
      teamKey: expect.stringMatching(/^opsteam_/),
    });
    expect(globex).toMatchObject({ maxOrgs: 10 });
    const list = await h.call('GET', '/__mock/teams', { token: null, headers: operator });
    expect(list.status).toBe(200);
    expect(list.body.teams.map((t: { id: string }) => t.id)).toEqual([acme.id, globex.id]);
    expect(list.text).not.toContain(acme.teamKey);
    expect(list.text).not.toMatch(/teamKey|keyDigest/);
  });

  it('refuses a prefix that overlaps another team (one starts with the other) with 409, naming the team', async () => {
    for (const orgPrefix of ['acme-eu', 'acme', 'a']) {
      const reply = await createTeam(h, { name: 'Overlap', orgPrefix });
      expectProblem(reply, 409, 'COMMON.ENTITY.ALREADY_EXISTS');
      expect(reply.body.parameters).toEqual({ entity: 'Team', id: acme.id });
    }
  });

  it('refuses a team whose maxOrgs would take the sum over --max-tenants, naming the limit', async () => {
    const reply = await createTeam(h, { name: 'Big', orgPrefix: 'big-', maxOrgs: 86 });
    // At the catalog's status for the code (inferred there).
    expectProblem(reply, catalogEntry('COMMON.TENANT.PLAN_LIMIT_EXCEEDED').status, 'COMMON.TENANT.PLAN_LIMIT_EXCEEDED');
    expect(reply.body.parameters).toEqual({ limit: 'maxTenants' });
    expect(reply.body.detail).toContain('85 left');
  });

  it('answers bad bodies with the admin API validation problem naming the field', async () => {
    for (const [body, field] of [
      [{ orgPrefix: 'x-' }, 'name'],
      [{ name: 'X', orgPrefix: '-bad' }, 'orgPrefix'],
      [{ name: 'X', orgPrefix: 'x-', maxOrgs: 0 }, 'maxOrgs'],
      [[], ''],
    ] as const) {
      const reply = await createTeam(h, body);
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters).toEqual({ field });
    }
  });

  it('mints tokens with a team key only for orgs under its prefix, 403 elsewhere whether or not the org exists', async () => {
    const inside = await mint(h, acme.teamKey, { org: 'acme-ci', roles: ['App.Admin'], permissions: ALL_PERMISSIONS });
    expect(inside.status).toBe(201);
    const list = await h.call('GET', '/v1/items/skus?pageSize=1', { token: inside.body.token });
    expect(list.status).toBe(200);
    for (const org of ['globex-ci', h.org, 'acm'])
      expectProblem(await mint(h, acme.teamKey, { org }), 403, 'COMMON.AUTH.FORBIDDEN');
  });

  it('bounds the lifetime of a team token: a day by default and at most', async () => {
    const minted = await mint(h, acme.teamKey, { org: 'acme-life' });
    const claims = JSON.parse(Buffer.from(minted.body.token.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(86_400);
    expect(claims.opsapi_team).toBe(acme.id);
    const tooLong = await mint(h, acme.teamKey, { org: 'acme-life', expiresIn: 86_401 });
    expectProblem(tooLong, 400, 'COMMON.VALIDATION.ERROR');
    expect(tooLong.body.parameters).toEqual({ field: 'expiresIn' });
  });

  it("reaches its own orgs' tenant-scoped routes with the team key, and refuses another team's org", async () => {
    const own = (await mint(h, acme.teamKey, { org: 'acme-reach' })).body.token;
    const other = (await mint(h, globex.teamKey, { org: 'globex-reach' })).body.token;
    const asAcme = (token: string, method = 'GET', path = '/__mock/webhook-secret', body?: object) =>
      h.call(method, path, { token, headers: { [TEAM_KEY_HEADER]: acme.teamKey }, ...(body ? { body } : {}) });
    expect((await asAcme(own)).status).toBe(200);
    expect((await asAcme(own, 'POST', '/__mock/reset', {})).body).toEqual({ reset: 'acme-reach' });
    for (const [method, path, body] of [
      ['GET', '/__mock/webhook-secret'],
      ['GET', '/__mock/requests'],
      ['GET', '/__mock/clock'],
      ['POST', '/__mock/reset', {}],
    ] as const) {
      const refused = await asAcme(other, method, path, body);
      expectProblem(refused, 403, 'COMMON.AUTH.FORBIDDEN');
      expect(refused.text).not.toContain('globex-reach');
    }
  });

  it("lets a tenant's own App.Admin token alone reach its tenant-scoped routes, and nothing else", async () => {
    expect((await h.call('GET', '/__mock/webhook-secret', { token: h.admin })).status).toBe(200);
    expect((await h.call('POST', '/__mock/reset', { token: h.admin, body: {} })).body).toEqual({ reset: h.org });
    expect((await h.call('GET', '/__mock/webhook-secret', { token: h.limited })).status).toBe(401);
    for (const [method, path, body] of [
      ['GET', '/__mock/stats'],
      ['GET', '/__mock/teams'],
      ['POST', '/__mock/tokens', { org: h.org }],
      ['POST', '/__mock/reset', { all: true }],
    ] as const)
      expect((await h.call(method, path, { token: h.admin, ...(body ? { body } : {}) })).status, path).toBe(401);
  });

  it('keeps operator routes from teams: stats, teams, a reset of every tenant (403)', async () => {
    const headers = { [TEAM_KEY_HEADER]: acme.teamKey };
    for (const [method, path, body] of [
      ['GET', '/__mock/stats'],
      ['GET', '/__mock/teams'],
      ['POST', '/__mock/teams', { name: 'x', orgPrefix: 'acme-x' }],
      ['DELETE', `/__mock/teams/${globex.id}`],
      ['POST', '/__mock/reset', { all: true }],
    ] as const)
      expectProblem(
        await h.call(method, path, { token: null, headers, ...(body ? { body } : {}) }),
        403,
        'COMMON.AUTH.FORBIDDEN',
      );
  });

  it('revokes a team: its key and every token it minted get the plain 401 at once, on /v1 and /__mock', async () => {
    const team = (await createTeam(h, { name: 'Short-lived', orgPrefix: 'brief-', maxOrgs: 1 })).body;
    const token = (await mint(h, team.teamKey, { org: 'brief-1', roles: ['App.Admin'], permissions: ALL_PERMISSIONS }))
      .body.token;
    expect((await h.call('GET', '/v1/items/skus?pageSize=1', { token })).status).toBe(200);
    expect((await h.call('DELETE', `/__mock/teams/${team.id}`, { token: null, headers: operator })).status).toBe(204);
    expectProblem(await h.call('GET', '/v1/items/skus?pageSize=1', { token }), 401, null);
    expect((await h.call('GET', '/__mock/webhook-secret', { token })).status).toBe(401);
    const refused = await mint(h, team.teamKey, { org: 'brief-2' });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^TeamKey/);
    expectProblem(
      await h.call('DELETE', `/__mock/teams/${team.id}`, { token: null, headers: operator }),
      404,
      'COMMON.ENTITY.NOT_FOUND',
    );
  });

  it('gives every /__mock route a class in the access table', async () => {
    const routes = await registeredAdminRoutes(h.mock.app);
    expect(routes.length).toBeGreaterThan(15);
    for (const { method, url } of routes) expect(() => accessOf(method, url), `${method} ${url}`).not.toThrow();
    expect(() => accessOf('GET', '/__mock/unclassified')).toThrow(/no access class/);
  });
});

describe('throttling of refused keys', () => {
  const wrong = (h: InjectHarness, headers: Record<string, string>) =>
    h.call('GET', '/__mock/stats', { token: null, headers });

  it('answers 429 with Retry-After after 10 refused keys from one address, without checking the next key', async () => {
    const h = await injectHarness({ adminKey: KEY });
    try {
      for (let i = 0; i < 10; i++) expect((await wrong(h, { [ADMIN_KEY_HEADER]: `wrong-${i}` })).status).toBe(401);
      for (const headers of [{ [ADMIN_KEY_HEADER]: 'wrong-again' }, { [TEAM_KEY_HEADER]: 'opsteam_guess' }, operator]) {
        const reply = await wrong(h, headers);
        expectProblem(reply, 429, 'COMMON.RATE_LIMIT.EXCEEDED');
        expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Health and tenant traffic are not throttled.
      expect((await h.call('GET', '/__mock/health', { token: null })).status).toBe(200);
      expect((await h.call('GET', '/v1/items/skus?pageSize=1')).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('counts X-Forwarded-For sources apart only under --trust-proxy', async () => {
    for (const trustProxy of [false, true]) {
      const h = await injectHarness({ adminKey: KEY, trustProxy });
      try {
        // The client writes what it likes before the address the balancer appends (the last): that does not help it.
        for (let i = 0; i < 10; i++)
          await wrong(h, { [ADMIN_KEY_HEADER]: 'wrong', 'x-forwarded-for': `203.0.113.${i}, 192.0.2.1` });
        const same = await wrong(h, { ...operator, 'x-forwarded-for': '203.0.113.99, 192.0.2.1' });
        expect(same.status).toBe(429);
        // Another client behind the same balancer is a source of its own only when the balancer is trusted.
        const other = await wrong(h, { ...operator, 'x-forwarded-for': '198.51.100.7' });
        expect(other.status, `trustProxy ${trustProxy}`).toBe(trustProxy ? 200 : 429);
      } finally {
        await h.close();
      }
    }
  });
});
