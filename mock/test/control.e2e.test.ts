/**
 * The narrow control API of a built mock (`mock.control`): what tests and benchmarks in the same process use
 * instead of the mock's internal parts. Each handle is checked against what the HTTP API shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/model.js';
import { startMock, type RunningMock } from '../server.js';
import { freshOrg } from './harness.js';

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: { limit: 1000, windowMs: 1000 }, seed: 7 });
});

afterAll(async () => {
  await mock?.close();
});

async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('mock.control', () => {
  it('shows the resolved options, frozen, and no internal parts', () => {
    expect(mock.control.options).toMatchObject({
      host: '127.0.0.1',
      seed: 7,
      rateLimit: { limit: 1000, windowMs: 1000 },
    });
    expect(Object.isFrozen(mock.control.options)).toBe(true);
    expect('services' in mock).toBe(false);
  });

  it('mints tokens the mock accepts: every permission by default, only those asked for otherwise', async () => {
    const tenant = mock.control.tenant(freshOrg('control-token'));
    const self = await call(await tenant.token(), 'GET', '/v1/admin/tenants/self');
    expect(self.status).toBe(200);
    expect(self.body.orgCode).toBe(tenant.org);
    const bare = await call(await tenant.token({ permissions: [], roles: [] }), 'GET', '/v1/items/skus');
    expect(bare.status).toBe(403);
    const expired = await call(await tenant.token({ expiresIn: -3600 }), 'GET', '/v1/items/skus');
    expect(expired.status).toBe(401);
  });

  it('tells the fixtures, the webhook secret and the request journal the admin API tells', async () => {
    const tenant = mock.control.tenant(freshOrg('control-admin'));
    const token = await tenant.token();
    expect(tenant.fixtures()).toEqual((await call(token, 'GET', '/__mock/fixtures')).body);
    expect(tenant.webhookSecret()).toBe((await call(token, 'GET', '/__mock/webhook-secret')).body.secret);
    await call(token, 'GET', '/v1/admin/tenants/self');
    expect(tenant.requests().map((r) => r.operationId)).toContain('getTenantSelf');
    expect(tenant.requests()).toEqual((await call(token, 'GET', '/__mock/requests')).body.requests);
  });

  it("moves one tenant's clock like POST /__mock/clock, and refuses to move it backwards", async () => {
    const tenant = mock.control.tenant(freshOrg('control-clock'));
    const before = Date.now();
    await tenant.clock.advance(3600);
    expect(tenant.clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await call(await tenant.token(), 'GET', '/__mock/clock')).body.offsetSeconds).toBe(3600);
    expect(tenant.inspect()?.clockOffsetSeconds).toBe(3600);
    expect(() => tenant.clock.advance(-1)).toThrow(RangeError);
    expect(() => tenant.clock.advance(Number.NaN)).toThrow(RangeError);
  });

  it('inspects stored state without seeding a tenant, and hands out copies only', async () => {
    const tenant = mock.control.tenant(freshOrg('control-inspect'));
    expect(tenant.inspect()).toBeUndefined();
    expect(mock.control.orgs()).not.toContain(tenant.org);

    const token = await tenant.token();
    const m = (await call(token, 'GET', '/__mock/fixtures')).body as FixtureManifest;
    expect(
      (
        await call(token, 'PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
          locationReference: m.sku.locationReference,
          lotId: m.sku.lotId,
          stock: 4242,
        })
      ).status,
    ).toBe(204);
    expect((await call(token, 'DELETE', `/v1/items/families/${m.deletableFamilyId}`)).status).toBe(204);
    const view = tenant.inspect()!;
    expect(view.sku(m.sku.reference)?.stock.some((e) => e.quantity === 4242)).toBe(true);
    expect(view.deletedFamilies()).toEqual([m.deletableFamilyId]);
    expect(view.locations()).toContain(m.sku.locationReference);
    expect(view.purchaseOrderLines().some((l) => l.id === m.purchaseOrderLine.lineId)).toBe(true);

    view.sku(m.sku.reference)!.stock.length = 0;
    expect(tenant.inspect()!.sku(m.sku.reference)!.stock.length).toBeGreaterThan(0);
  });

  it('resets one tenant: it leaves memory and its next request sees a freshly seeded world', async () => {
    const tenant = mock.control.tenant(freshOrg('control-reset'));
    const token = await tenant.token();
    const m = tenant.fixtures();
    expect((await call(token, 'DELETE', `/v1/items/families/${m.deletableFamilyId}`)).status).toBe(204);
    tenant.reset();
    expect(mock.control.orgs()).not.toContain(tenant.org);
    expect((await call(token, 'DELETE', `/v1/items/families/${m.deletableFamilyId}`)).status).toBe(204);
  });

  it('counts tenants, notifications and pending deliveries like GET /__mock/stats, and waits for deliveries', async () => {
    const tenant = mock.control.tenant(freshOrg('control-stats'));
    const token = await tenant.token();
    // Port 9 on loopback refuses: the attempt fails at once and the notification stays scheduled for a retry.
    const sub = await call(token, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: 'http://127.0.0.1:9/hook',
      eventName: 'Items.Sku.Created',
      eventVersion: 1,
    });
    expect(sub.status).toBe(201);
    expect((await call(token, 'POST', '/__mock/events', { eventName: 'Items.Sku.Created' })).status).toBe(202);
    await mock.control.idle();
    const stats = mock.control.stats();
    const http = (await call(token, 'GET', '/__mock/stats')).body;
    expect(stats).toEqual({
      tenants: http.tenants,
      notifications: http.notifications,
      pendingDeliveries: http.pendingDeliveries,
      listCaches: http.listCaches,
      listPages: http.listPages,
      verifiedTokens: http.verifiedTokens,
    });
    expect(stats.tenants).toBe(mock.control.orgs().length);
    expect(stats.notifications).toBeGreaterThanOrEqual(1);
    expect(stats.pendingDeliveries).toBeGreaterThanOrEqual(1);
  });
});
