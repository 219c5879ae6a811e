import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY_HEADER, isAdminKeyRefusal } from '../../common/admin-key.js';
import type { Mock } from '../server.js';
import { registeredAdminRoutes } from './admin-routes.js';
import { adminTenant, expectProblem, injectHarness, type InjectHarness, type Reply } from './harness.js';

const KEY = 'k3y-0f-the-shared-mock-0123456789';

/** Wrong keys: one character off (same length), a prefix, the key and more, another case, an empty header. */
const WRONG_KEYS: [what: string, key: string][] = [
  ['a key of the same length', `${KEY.slice(0, -1)}x`],
  ['a shorter key (a prefix of it)', KEY.slice(0, 16)],
  ['a longer key (it and more)', `${KEY}0`],
  ['the key in upper case', KEY.toUpperCase()],
  ['an empty header', ''],
];

interface Route {
  method: string;
  url: string;
}

/** Every admin route of a built mock, from Fastify's own route table; `:param` segments get a sample value. */
async function adminRoutes(mock: Mock): Promise<Route[]> {
  return (await registeredAdminRoutes(mock.app)).map((r) => ({ ...r, url: r.url.replace(/:\w+/g, 'sample-1') }));
}

/** The route's request as a client sends it: the tenant's admin token, and an (empty) JSON body where it takes one. */
function ask(
  h: InjectHarness,
  route: Route,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return h.call(route.method, route.url, { token, headers, ...(route.method === 'POST' ? { body: {} } : {}) });
}

function expectAdminKeyRefusal(reply: Reply, route: Route): void {
  expect(reply.status, `${route.method} ${route.url}: ${reply.text}`).toBe(401);
  expect(isAdminKeyRefusal(reply.status, reply.headers['www-authenticate'])).toBe(true);
  // HEAD answers carry no body; every other refusal is the mock's plain 401 problem (no `code`).
  if (route.method !== 'HEAD') expectProblem(reply, 401, null, `${route.method} ${route.url}`);
}

describe('a mock started with an admin key (--admin-key)', () => {
  let keyed: InjectHarness;
  let open: InjectHarness;
  let routes: Route[];
  let guarded: Route[];

  beforeAll(async () => {
    // Every route is asked with each wrong key from one address: far more refusals than the throttle lets through
    // (mock/test/admin-teams.test.ts tests the throttle).
    keyed = await injectHarness({ adminKey: KEY, keyFailureRate: { limit: 100_000, windowMs: 1000 } });
    open = await injectHarness();
    routes = await adminRoutes(keyed.mock);
    guarded = routes.filter((r) => r.url !== '/__mock/health');
  });

  afterAll(async () => {
    await keyed?.close();
    await open?.close();
  });

  it('has admin routes to guard: the route table lists every /__mock route, health and the document among them', () => {
    expect(guarded.length).toBeGreaterThan(10);
    expect(routes).toContainEqual({ method: 'GET', url: '/__mock/health' });
    expect(guarded).toContainEqual({ method: 'POST', url: '/__mock/tokens' });
    expect(guarded).toContainEqual({ method: 'POST', url: '/__mock/reset' });
    expect(guarded).toContainEqual({ method: 'GET', url: '/__mock/openapi.json' });
  });

  it('answers every admin route but health with the 401 when no key is sent, with no credentials or a token short of App.Admin', async () => {
    for (const route of guarded)
      for (const token of [null, keyed.limited]) {
        const reply = await ask(keyed, route, token);
        expectAdminKeyRefusal(reply, route);
        if (route.method !== 'HEAD')
          expect(reply.body.detail).toMatch(/needs the mock's admin key in (the )?X-Admin-Key/);
      }
  });

  it.each(WRONG_KEYS)('answers every admin route but health with the 401 for %s', async (_what, wrong) => {
    for (const route of guarded) {
      const reply = await ask(keyed, route, keyed.admin, { [ADMIN_KEY_HEADER]: wrong });
      expectAdminKeyRefusal(reply, route);
      if (route.method !== 'HEAD') expect(reply.body.detail).toBe('The admin API refused the key in X-Admin-Key.');
    }
  });

  it('answers every admin route with the key as a mock without a key answers the same request', async () => {
    for (const route of guarded) {
      const withKey = await ask(keyed, route, keyed.admin, { [ADMIN_KEY_HEADER]: KEY });
      const unkeyed = await ask(open, route, open.admin);
      expect(withKey.status, `${route.method} ${route.url}: ${withKey.text}`).toBe(unkeyed.status);
      expect(isAdminKeyRefusal(withKey.status, withKey.headers['www-authenticate'])).toBe(false);
    }
  });

  it('mints a token and resets every tenant with the key, neither without it', async () => {
    const mint = { org: 'keyed-org', permissions: [], roles: [] };
    expect((await keyed.call('POST', '/__mock/tokens', { token: null, body: mint })).status).toBe(401);
    expect((await keyed.call('POST', '/__mock/reset', { token: null, body: { all: true } })).status).toBe(401);
    const headers = { [ADMIN_KEY_HEADER]: KEY };
    const minted = await keyed.call('POST', '/__mock/tokens', { token: null, headers, body: mint });
    expect(minted.status).toBe(201);
    expect(minted.body.token).toEqual(expect.any(String));
    const reset = await keyed.call('POST', '/__mock/reset', { token: null, headers, body: { all: true } });
    expect(reset.status).toBe(200);
  });

  it('keeps health open, without a key or with a wrong one', async () => {
    for (const headers of [{}, { [ADMIN_KEY_HEADER]: 'wrong' }] as Record<string, string>[]) {
      expect((await keyed.call('GET', '/__mock/health', { token: null, headers })).body).toEqual({ status: 'ok' });
      expect((await keyed.call('HEAD', '/__mock/health', { token: null, headers })).status).toBe(200);
    }
  });

  it('leaves the operations alone: /v1 needs no admin key', async () => {
    expect((await keyed.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' })).status).toBe(200);
  });

  it('does not offer its admin document on /docs, whose page cannot send the key', async () => {
    const script = await keyed.call('GET', '/docs/static/swagger-initializer.js', { token: null });
    expect(script.status).toBe(200);
    expect(script.text).not.toMatch(/__mock/);
  });
});

describe('a mock without an admin key on loopback (the default)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers its admin API to anyone, as before: tokens, a reset of every tenant, the document', async () => {
    const minted = await h.call('POST', '/__mock/tokens', { token: null, body: { org: 'anyone' } });
    expect(minted.status).toBe(201);
    expect((await h.call('POST', '/__mock/reset', { token: null, body: { all: true } })).status).toBe(200);
    expect((await h.call('GET', '/__mock/openapi.json', { token: null })).status).toBe(200);
    const t = await adminTenant(h);
    expect((await h.call('GET', '/__mock/webhook-secret', { token: t.token })).status).toBe(200);
  });
});

describe('an admin key that cannot guard anything', () => {
  it.each([
    ['a key of 15 characters', 'a'.repeat(15), /--admin-key is 15 characters; use at least 16/],
    ['an empty key', '', /--admin-key is empty/],
    ['a key with a space', `${'a'.repeat(16)} b`, /visible ASCII characters without spaces/],
  ])('is refused before the mock is built: %s', async (_what, adminKey, says) => {
    await expect(injectHarness({ adminKey })).rejects.toThrow(says);
  });

  it('is never checked when the admin API is off (--no-admin): there is nothing to guard', async () => {
    const h = await injectHarness({ admin: false, adminKey: 'short' });
    expect((await h.call('GET', '/__mock/health', { token: null })).status).toBe(404);
    await h.close();
  });
});
