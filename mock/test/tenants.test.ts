import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { adminClaims } from '../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness } from './harness.js';

/** A tenant as the tests drive it: its org and an admin token. */
interface Tenant {
  org: string;
  token: string;
}

async function tenantOf(h: InjectHarness, prefix = 'tenant'): Promise<Tenant> {
  const org = freshOrg(prefix);
  return { org, token: await h.token(adminClaims(org)) };
}

async function manifestOf(h: InjectHarness, t: Tenant): Promise<FixtureManifest> {
  const reply = await h.call('GET', '/__mock/fixtures', { token: t.token });
  expect(reply.status).toBe(200);
  return reply.body as FixtureManifest;
}

async function firstPage(h: InjectHarness, t: Tenant): Promise<unknown[]> {
  const reply = await h.call('GET', '/v1/items/skus?pageSize=50', { token: t.token, op: 'listSkus' });
  expect(reply.status).toBe(200);
  return reply.body.results as unknown[];
}

async function totalStockOf(h: InjectHarness, t: Tenant, reference: string): Promise<number> {
  const reply = await h.call('GET', `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${reference}`)}`, {
    token: t.token,
    op: 'listSkus',
  });
  expect(reply.status).toBe(200);
  expect(reply.body.totalCount).toBe(1);
  return reply.body.results[0].totalStock as number;
}

async function familyCount(h: InjectHarness, t: Tenant, id: string): Promise<number> {
  const reply = await h.call('POST', '/v1/items/families/search', {
    token: t.token,
    body: { filterBy: `id[Equals]${id}` },
    op: 'searchFamilies',
  });
  expect(reply.status).toBe(200);
  return reply.body.totalCount as number;
}

async function subscriptionCount(h: InjectHarness, t: Tenant): Promise<number> {
  const reply = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
    token: t.token,
    op: 'listWebhookSubscriptions',
  });
  expect(reply.status).toBe(200);
  return reply.body.totalCount as number;
}

async function setStock(h: InjectHarness, t: Tenant, m: FixtureManifest, stock: number): Promise<void> {
  const reply = await h.call('PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
    token: t.token,
    body: { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock },
    op: 'updateSkuStock',
  });
  expect(reply.status).toBe(204);
}

describe('tenants', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it("gives two orgs the seed's data, each under ids of its own", async () => {
    const a = await tenantOf(h);
    const b = await tenantOf(h);
    const pageA = (await firstPage(h, a)) as { id: string; name: string }[];
    const pageB = (await firstPage(h, b)) as { id: string; name: string }[];
    const idsA = new Set(pageA.map((s) => s.id));
    expect(pageB.some((s) => idsA.has(s.id))).toBe(false);
    expect(pageA.map((s) => s.name)).toEqual(pageB.map((s) => s.name));
    const selfA = await h.call('GET', '/v1/admin/tenants/self', { token: a.token, op: 'getTenantSelf' });
    const selfB = await h.call('GET', '/v1/admin/tenants/self', { token: b.token, op: 'getTenantSelf' });
    expect(selfA.body.orgCode).toBe(a.org);
    expect(selfB.body.orgCode).toBe(b.org);
    expect(selfA.body.id).not.toBe(selfB.body.id);
  });

  it('keeps a stock update of one org invisible to another org', async () => {
    const a = await tenantOf(h);
    const b = await tenantOf(h);
    const m = await manifestOf(h, a);
    const mb = await manifestOf(h, b);
    const beforeB = await firstPage(h, b);
    await setStock(h, a, m, 0);
    const zeroed = await totalStockOf(h, a, m.sku.reference);
    await setStock(h, a, m, 777);
    expect(await totalStockOf(h, a, m.sku.reference)).toBeCloseTo(zeroed + 777, 6);
    expect(await firstPage(h, b)).toEqual(beforeB);
    // The same reference in the other org (when it exists) keeps its own stock.
    const sameRef = await h.call(
      'GET',
      `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`,
      { token: b.token, op: 'listSkus' },
    );
    const original = (beforeB as { reference: string; totalStock: number }[]).find(
      (s) => s.reference === m.sku.reference,
    );
    if (original) expect(sameRef.body.results[0].totalStock).toBe(original.totalStock);
    expect(mb.orgCode).toBe(b.org);
  });

  it('keeps a family delete of one org invisible to another org', async () => {
    const a = await tenantOf(h);
    const b = await tenantOf(h);
    const ma = await manifestOf(h, a);
    const mb = await manifestOf(h, b);
    const del = await h.call('DELETE', `/v1/items/families/${ma.deletableFamilyId}`, {
      token: a.token,
      op: 'deleteFamily',
    });
    expect(del.status).toBe(204);
    expect(await familyCount(h, a, ma.deletableFamilyId)).toBe(0);
    // The other org cannot see or delete the first org's family, and keeps its own.
    expect(await familyCount(h, b, ma.deletableFamilyId)).toBe(0);
    const cross = await h.call('DELETE', `/v1/items/families/${ma.deletableFamilyId}`, {
      token: b.token,
      op: 'deleteFamily',
    });
    expect(cross.status).toBe(404);
    expect(await familyCount(h, b, mb.deletableFamilyId)).toBe(1);
  });

  it('keeps a subscription of one org invisible to another org', async () => {
    const a = await tenantOf(h);
    const b = await tenantOf(h);
    const created = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      token: a.token,
      body: { endpoint: 'http://127.0.0.1:9/hook', eventName: 'Items.Sku.Created', eventVersion: 1 },
      op: 'createWebhookSubscription',
    });
    expect(created.status).toBe(201);
    expect(await subscriptionCount(h, a)).toBe(1);
    expect(await subscriptionCount(h, b)).toBe(0);
    const cross = await h.call('DELETE', `/v1/notifications/webhook/subscriptions/${created.body.id}`, {
      token: b.token,
      op: 'deleteWebhookSubscription',
    });
    expect(cross.status).toBe(404);
    expect(await subscriptionCount(h, a)).toBe(1);
  });

  it('refuses an API key of one org for the data of another', async () => {
    const a = await tenantOf(h);
    const b = await tenantOf(h);
    const key = await h.call('POST', '/v1/access/apiKeys', { token: a.token, body: { name: 'a' }, op: 'createApiKey' });
    const self = await h.call('GET', '/v1/admin/tenants/self', {
      token: null,
      apiKey: key.body.key,
      op: 'getTenantSelf',
    });
    expect(self.body.orgCode).toBe(a.org);
    const mixed = await h.call('GET', '/v1/admin/tenants/self', {
      token: b.token,
      apiKey: key.body.key,
      op: 'getTenantSelf',
    });
    expect(mixed.status).toBe(401);
  });

  it('seeds the same org the same way on two mock instances with the same seed', async () => {
    const org = freshOrg('twin');
    const other = await injectHarness({ seed: h.mock.control.options.seed });
    try {
      const here = { org, token: await h.token(adminClaims(org)) };
      const there = { org, token: await other.token(adminClaims(org)) };
      const pageHere = await firstPage(h, here);
      const pageThere = await firstPage(other, there);
      expect(pageHere).toHaveLength(50);
      expect(pageThere).toEqual(pageHere);
      expect(await manifestOf(other, there)).toEqual(await manifestOf(h, here));
      const familiesHere = await h.call('POST', '/v1/items/families/search', {
        token: here.token,
        body: {},
        op: 'searchFamilies',
      });
      const familiesThere = await other.call('POST', '/v1/items/families/search', {
        token: there.token,
        body: {},
        op: 'searchFamilies',
      });
      expect(familiesThere.body).toEqual(familiesHere.body);
    } finally {
      await other.close();
    }
  });

  it('gives the caller a fresh world after POST /__mock/reset', async () => {
    const a = await tenantOf(h);
    const m = await manifestOf(h, a);
    const pristine = await firstPage(h, a);
    await setStock(h, a, m, 0);
    await setStock(h, a, m, 4242);
    await h.call('DELETE', `/v1/items/families/${m.deletableFamilyId}`, { token: a.token, op: 'deleteFamily' });
    expect(await familyCount(h, a, m.deletableFamilyId)).toBe(0);
    const reset = await h.call('POST', '/__mock/reset', { token: a.token });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ reset: a.org });
    expect(await familyCount(h, a, m.deletableFamilyId)).toBe(1);
    expect(await firstPage(h, a)).toEqual(pristine);
  });
});

describe('tenants beyond --max-tenants', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ maxTenants: 2 });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('evicts the least recently used tenant when a third one arrives', async () => {
    const a = await tenantOf(h, 'lru-a');
    const b = await tenantOf(h, 'lru-b');
    const c = await tenantOf(h, 'lru-c');
    const ma = await manifestOf(h, a);
    const mb = await manifestOf(h, b);
    expect(
      (await h.call('DELETE', `/v1/items/families/${ma.deletableFamilyId}`, { token: a.token, op: 'deleteFamily' }))
        .status,
    ).toBe(204);
    expect(
      (await h.call('DELETE', `/v1/items/families/${mb.deletableFamilyId}`, { token: b.token, op: 'deleteFamily' }))
        .status,
    ).toBe(204);
    expect(await familyCount(h, a, ma.deletableFamilyId)).toBe(0);
    expect(await familyCount(h, b, mb.deletableFamilyId)).toBe(0);
    // b is now the most recently used; c's first request pushes a, the least recently used, out.
    expect(h.mock.control.orgs()).toEqual([a.org, b.org]);
    await firstPage(h, c);
    expect(h.mock.control.orgs()).toEqual([b.org, c.org]);
    expect(await familyCount(h, b, mb.deletableFamilyId)).toBe(0);
    // a comes back as a freshly seeded world: its delete is gone (and b, now least recently used, is evicted).
    expect(await familyCount(h, a, ma.deletableFamilyId)).toBe(1);
    expect(h.mock.control.orgs()).toHaveLength(2);
  });
});

describe('a full store whose other tenants cannot be evicted (maxTenants: 1)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ maxTenants: 1 });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('keeps serving a new tenant while a tenant with pending deliveries holds the only place', async () => {
    const a = await tenantOf(h, 'pinned');
    const b = await tenantOf(h, 'newcomer');
    // A delivery to a closed port fails and stays Pending (retried later): its tenant must not be evicted.
    const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      token: a.token,
      body: { endpoint: 'http://127.0.0.1:9/closed', eventName: 'Items.Sku.Created', eventVersion: 1 },
      op: 'createWebhookSubscription',
    });
    expect(sub.status).toBe(201);
    const emitted = await h.call('POST', '/__mock/events', {
      token: a.token,
      body: { eventName: 'Items.Sku.Created' },
    });
    expect(emitted.body.notifications).toHaveLength(1);
    await h.mock.control.idle();
    // The newcomer's write must stick, and the pinned tenant must keep its subscription.
    const created = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      token: b.token,
      body: { endpoint: 'http://127.0.0.1:9/other', eventName: 'Items.Sku.Created', eventVersion: 1 },
      op: 'createWebhookSubscription',
    });
    expect(created.status).toBe(201);
    expect(await subscriptionCount(h, b)).toBe(1);
    expect(await subscriptionCount(h, a)).toBe(1);
    const notification = await h.call('GET', `/v1/notifications/webhook/${emitted.body.notifications[0]}`, {
      token: a.token,
      op: 'getWebhookNotification',
    });
    expect(notification.body.status).toBe('Pending');
  });
});
