/**
 * Tenant isolation: tenant B, holding every identifier tenant A ever showed it, can neither read, change nor delete
 * anything of A, never sees A's records in its lists, and its resets and clock travel leave A alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { adminClaims } from '../../auth/presets.js';
import { freshOrg, startHarness, type Harness } from '../harness.js';
import { bearer, probe, settleWebhooks, startReceiver, tenantSnapshot, Wire, type Receiver } from './support.js';

interface Tenant {
  org: string;
  token: string;
  m: FixtureManifest;
  subscriptionIds: string[];
  notificationIds: string[];
  apiKey: { id: string; key: string };
}

describe('tenant isolation', () => {
  let h: Harness;
  let wire: Wire;
  let receiver: Receiver;
  let a: Tenant;
  let b: Tenant;

  const get = async (t: Tenant, path: string) => {
    const reply = await probe(wire, { method: 'GET', path, headers: bearer(t.token) });
    expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
    return reply.body;
  };

  /** Seeds a tenant with subscriptions, notifications (with attempts) and an API key. */
  async function tenant(org: string): Promise<Tenant> {
    const token = await h.token(adminClaims(org));
    const call = (method: string, path: string, body?: unknown, op?: string) =>
      h.call(method, path, { token, ...(body !== undefined ? { body } : {}), ...(op ? { op } : {}) });
    const m = (await call('GET', '/__mock/fixtures')).body as FixtureManifest;
    receiver.secrets.add((await call('GET', '/__mock/webhook-secret')).body.secret as string);
    const subscriptionIds: string[] = [];
    for (const [eventName, eventVersion] of [
      ['Warehouse.Stock.Updated', 2],
      ['Items.Sku.InspectionUpdated', 1],
    ] as const) {
      const sub = await call(
        'POST',
        '/v1/notifications/webhook/subscriptions',
        { endpoint: receiver.url, eventName, eventVersion },
        'createWebhookSubscription',
      );
      expect(sub.status).toBe(201);
      subscriptionIds.push(sub.body.id as string);
    }
    expect(
      (
        await call(
          'PUT',
          `/v1/items/skus/${m.sku.reference}/stock`,
          { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: 3 },
          'updateSkuStock',
        )
      ).status,
    ).toBe(204);
    expect(
      (
        await call(
          'PUT',
          `/v1/items/skus/${m.sku.reference}/inspections/${m.sku.inspectionIds[0]}`,
          { name: `Checked by ${org}`, isMandatory: true },
          'updateSkuInspection',
        )
      ).status,
    ).toBe(200);
    expect((await call('POST', '/__mock/events', { eventName: 'Warehouse.Stock.Updated' })).status).toBe(202);
    const key = await call('POST', '/v1/access/apiKeys', { name: `key of ${org}` }, 'createApiKey');
    expect(key.status).toBe(201);
    await settleWebhooks(h);
    const notifications = await call(
      'GET',
      '/v1/notifications/webhook?pageSize=1000',
      undefined,
      'listWebhookNotifications',
    );
    const notificationIds = (notifications.body.results as { id: string }[]).map((n) => n.id);
    expect(notificationIds.length).toBeGreaterThanOrEqual(3);
    return {
      org,
      token,
      m,
      subscriptionIds,
      notificationIds,
      apiKey: { id: key.body.id as string, key: key.body.key as string },
    };
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startHarness({ retrySchedule: [0] });
    wire = new Wire(h.url);
    a = await tenant(freshOrg('iso-a'));
    // References are the seed's content, the same in every tenant: B owns a SKU with A's reference, its own copy.
    const candidate = freshOrg('iso-b');
    b = await tenant(candidate);
  });

  afterAll(async () => {
    await wire?.close();
    await h?.close();
    await receiver?.close();
    expect(receiver?.badSignatures ?? 0).toBe(0);
  });

  it('gives two tenants different identifiers, secrets and worlds', async () => {
    expect(a.m.sku.inspectionIds.some((id) => b.m.sku.inspectionIds.includes(id))).toBe(false);
    expect(a.m.deletableFamilyId).not.toBe(b.m.deletableFamilyId);
    expect(a.m.purchaseOrderLine).not.toEqual(b.m.purchaseOrderLine);
    expect(a.subscriptionIds.some((id) => b.subscriptionIds.includes(id))).toBe(false);
    expect(a.notificationIds.some((id) => b.notificationIds.includes(id))).toBe(false);
    const secretA = (await h.call('GET', '/__mock/webhook-secret', { token: a.token })).body.secret;
    const secretB = (await h.call('GET', '/__mock/webhook-secret', { token: b.token })).body.secret;
    expect(secretA).not.toBe(secretB);
  });

  it('refuses B every id of A (404; 422 for a unit of A in a stock update), and A is unchanged', async () => {
    const before = await tenantSnapshot(h, wire, a.token, a.org, a.m);
    const journalBefore = (await get(a, '/__mock/requests')).requests.length as number;
    const lines = [a.m.purchaseOrderLine, a.m.cancelledPurchaseOrderLine, a.m.receivedPurchaseOrderLine];
    // B's SKU with A's reference is B's own (references are shared content): what it must refuse is A's ids.
    expect(b.m.sku.reference).toBe(a.m.sku.reference);
    const cases: { method: string; path: string; body?: unknown; status?: number; code?: string }[] = [
      // B's SKU with A's lot: the lot of another tenant does not exist here.
      {
        method: 'PUT',
        path: `/v1/items/skus/${b.m.sku.reference}/stock`,
        body: { locationReference: b.m.sku.locationReference, lotId: a.m.sku.lotId, stock: 99 },
      },
      // B's SKU with A's unit: a unit that is not configured for it (the unit's own rule, not 404).
      {
        method: 'PUT',
        path: `/v1/items/skus/${b.m.sku.reference}/stock`,
        body: {
          locationReference: b.m.sku.locationReference,
          stock: 1,
          stockUnitOfMeasureId: a.m.sku.alternativeUnitOfMeasureId,
        },
        status: 422,
        code: 'COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
      },
      ...a.m.sku.inspectionIds.map((id) => ({
        method: 'PUT',
        path: `/v1/items/skus/${b.m.sku.reference}/inspections/${id}`,
        body: { name: 'taken over', isMandatory: false },
      })),
      { method: 'DELETE', path: `/v1/items/families/${a.m.deletableFamilyId}` },
      ...lines.map((l) => ({
        method: 'PUT',
        path: `/v1/planning/purchaseOrders/${l.purchaseOrderId}/lines/${l.lineId}`,
        body: { quantity: 1, comment: 'taken over' },
      })),
      {
        method: 'PUT',
        path: `/v1/planning/purchaseOrders/${b.m.purchaseOrderLine.purchaseOrderId}/lines/${a.m.purchaseOrderLine.lineId}`,
        body: { quantity: 1 },
      },
      ...a.subscriptionIds.map((id) => ({ method: 'DELETE', path: `/v1/notifications/webhook/subscriptions/${id}` })),
      ...a.notificationIds.flatMap((id) => [
        { method: 'GET', path: `/v1/notifications/webhook/${id}` },
        { method: 'GET', path: `/v1/notifications/webhook/${id}/attempts` },
        { method: 'GET', path: `/v1/notifications/webhook/${id}/attempts?pageSize=1000&sortBy=-number` },
        { method: 'POST', path: `/v1/notifications/webhook/${id}/retry` },
      ]),
      { method: 'DELETE', path: `/__mock/api-keys/${a.apiKey.id}` },
    ];
    for (const c of cases) {
      const reply = await probe(
        wire,
        {
          method: c.method,
          path: c.path,
          headers: bearer(b.token),
          ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
        },
        'as B',
      );
      expect(reply.status, `${c.method} ${c.path}: ${reply.text.slice(0, 200)}`).toBe(c.status ?? 404);
      expect(reply.body.code).toBe(c.code ?? 'COMMON.ENTITY.NOT_FOUND');
    }
    await settleWebhooks(h);
    expect(await tenantSnapshot(h, wire, a.token, a.org, a.m)).toEqual(before);
    // None of B's requests reached A's request journal.
    const journal = (await get(a, '/__mock/requests')).requests as { status: number }[];
    expect(journal.filter((e) => e.status === 404)).toEqual([]);
    expect(journal.length).toBeGreaterThan(journalBefore);
  });

  it("answers 401 to A's API key sent with B's token, and lets A's key act as A only", async () => {
    const both = await probe(wire, {
      method: 'GET',
      path: '/v1/items/skus',
      headers: bearer(b.token, { 'x-api-key': a.apiKey.key }),
    });
    expect(both.status).toBe(401);
    expect(both.body).not.toHaveProperty('code');
    const write = await probe(wire, {
      method: 'POST',
      path: '/v1/access/apiKeys',
      headers: bearer(b.token, { 'x-api-key': a.apiKey.key }),
      body: '{"name":"mixed"}',
    });
    expect(write.status).toBe(401);
    const alone = await probe(wire, {
      method: 'GET',
      path: '/v1/admin/tenants/self',
      headers: { 'x-api-key': a.apiKey.key },
    });
    expect(alone.status).toBe(200);
    expect(alone.body.orgCode).toBe(a.org);
    const subs = await probe(wire, {
      method: 'GET',
      path: '/v1/notifications/webhook/subscriptions',
      headers: { 'x-api-key': a.apiKey.key },
    });
    expect((subs.body.results as { id: string }[]).map((s) => s.id).sort()).toEqual([...a.subscriptionIds].sort());
  });

  it("never lists an id of A in B's lists, and never shows A's notifications, attempts, subscriptions or keys", async () => {
    const idsOfA = new Set<string>([
      ...a.subscriptionIds,
      ...a.notificationIds,
      a.apiKey.id,
      a.apiKey.key,
      a.m.deletableFamilyId,
      a.m.sku.lotId,
      ...a.m.sku.inspectionIds,
    ]);
    for (const path of ['/v1/items/skus?pageSize=1000', '/v1/maintenance/assets?pageSize=1000'])
      for (const item of (await get(a, path)).results as { id: string }[]) idsOfA.add(item.id);
    const families = await probe(wire, {
      method: 'POST',
      path: '/v1/items/families/search',
      headers: bearer(a.token),
      body: '{"pageSize":1000}',
    });
    for (const item of families.body.results as { id: string }[]) idsOfA.add(item.id);
    for (const id of a.notificationIds)
      for (const attempt of (await get(a, `/v1/notifications/webhook/${id}/attempts?pageSize=1000`)).results as {
        id: string;
      }[])
        idsOfA.add(attempt.id);
    expect(idsOfA.size).toBeGreaterThan(300);

    const seenByB: string[] = [];
    for (const path of [
      '/v1/items/skus?pageSize=1000',
      '/v1/maintenance/assets?pageSize=1000',
      '/v1/notifications/webhook/subscriptions?pageSize=1000',
      '/v1/notifications/webhook?pageSize=1000',
      '/v1/admin/tenants/self',
      '/__mock/fixtures',
    ]) {
      seenByB.push(JSON.stringify(await get(b, path)));
    }
    seenByB.push(
      (
        await probe(wire, {
          method: 'POST',
          path: '/v1/items/families/search',
          headers: bearer(b.token),
          body: '{"pageSize":1000}',
        })
      ).text,
    );
    for (const id of b.notificationIds)
      seenByB.push(JSON.stringify(await get(b, `/v1/notifications/webhook/${id}/attempts?pageSize=1000`)));
    const text = seenByB.join('\n');
    expect([...idsOfA].filter((id) => text.includes(id))).toEqual([]);
    for (const path of ['/v1/notifications/webhook/subscriptions', '/v1/notifications/webhook']) {
      for (const id of [...a.subscriptionIds, ...a.notificationIds]) {
        const filtered = await get(b, `${path}?filterBy=${encodeURIComponent(`id[Equals]${id}`)}`);
        expect(filtered.totalCount).toBe(0);
      }
    }
    const bNotifications = (await get(b, '/v1/notifications/webhook?pageSize=1000')).results as {
      subscriptionId: string;
      payload: unknown;
    }[];
    expect(bNotifications.every((n) => b.subscriptionIds.includes(n.subscriptionId))).toBe(true);
    expect(JSON.stringify(bNotifications.map((n) => n.payload))).not.toContain(a.org);
  });

  it('leaves A alone when B resets its tenant', async () => {
    const before = await tenantSnapshot(h, wire, a.token, a.org, a.m);
    const reset = await h.call('POST', '/__mock/reset', { token: b.token });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ reset: b.org });
    expect((await get(b, '/v1/notifications/webhook/subscriptions')).totalCount).toBe(0);
    expect(await tenantSnapshot(h, wire, a.token, a.org, a.m)).toEqual(before);
    const key = await probe(wire, {
      method: 'GET',
      path: '/v1/admin/tenants/self',
      headers: { 'x-api-key': a.apiKey.key },
    });
    expect(key.status).toBe(200);
  });

  it("does not move A's clock when B advances its own", async () => {
    const clockA = (await get(a, '/__mock/clock')) as { offsetSeconds: number };
    const advanced = await h.call('POST', '/__mock/clock', { token: b.token, body: { advanceSeconds: 7200 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.offsetSeconds).toBe(7200);
    expect(((await get(a, '/__mock/clock')) as { offsetSeconds: number }).offsetSeconds).toBe(clockA.offsetSeconds);
    expect(((await get(b, '/__mock/clock')) as { offsetSeconds: number }).offsetSeconds).toBe(7200);
    expect(h.mock.control.tenant(a.org).inspect()?.clockOffsetSeconds).toBe(clockA.offsetSeconds);
  });
});
