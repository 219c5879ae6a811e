/**
 * The memory bound: with `maxTenants`, only that many tenants stay in memory (least recently used evicted), except
 * tenants with webhook deliveries still scheduled. With a state file, evicted tenants are reloaded whole on their
 * next request: ./evicted-reload.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { adminClaims } from '../../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness } from '../harness.js';
import { settleWebhooks, startReceiver, type Receiver } from './support.js';

const MAX = 5;
const THROWAWAY = 50;
/** Small worlds: eviction is about tenants, not their size, and each throwaway org seeds one. */
const SKUS = 20;

/** 50 throwaway orgs, each making one request; the store never holds more than MAX tenants that could be evicted. */
async function churn(h: InjectHarness, count = THROWAWAY, keep: string[] = []): Promise<string[]> {
  const orgs: string[] = [];
  for (let i = 0; i < count; i++) {
    const org = freshOrg('throwaway');
    orgs.push(org);
    const reply = await h.call('GET', '/v1/admin/tenants/self', {
      token: await h.token(adminClaims(org)),
      op: 'getTenantSelf',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.orgCode).toBe(org);
    const inMemory = h.mock.control.orgs();
    expect(inMemory.filter((o) => !keep.includes(o)).length).toBeLessThanOrEqual(MAX - keep.length);
    expect(inMemory).toContain(org);
  }
  return orgs;
}

describe(`maxTenants: ${MAX}`, () => {
  let h: InjectHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it(`keeps at most ${MAX} tenants in memory while ${THROWAWAY} orgs each make a request`, async () => {
    h = await injectHarness({ skus: SKUS, maxTenants: MAX });
    const early = freshOrg('early');
    const token = await h.token(adminClaims(early));
    const key = await h.call('POST', '/v1/access/apiKeys', {
      token,
      body: { name: 'short-lived' },
      op: 'createApiKey',
    });
    expect(key.status).toBe(201);
    const manifest = (await h.call('GET', '/__mock/fixtures', { token })).body as FixtureManifest;

    const orgs = await churn(h);
    const inMemory = h.mock.control.orgs();
    expect(inMemory.length).toBe(MAX);
    expect(inMemory).toEqual(orgs.slice(-MAX));

    // The evicted tenant comes back as a fresh copy of its seeded world: its API key is gone, its fixtures are the same.
    expect(h.mock.control.tenant(early).inspect()).toBeUndefined();
    expect(
      (await h.call('GET', '/v1/items/skus', { token: null, apiKey: key.body.key as string, op: 'listSkus' })).status,
    ).toBe(401);
    const again = await h.call('GET', '/__mock/fixtures', { token });
    expect(again.body).toEqual(manifest);
    // ... and the first answer of its new world says its write was dropped, once (RFC 9111 Warning, code 299).
    expect(again.headers.warning).toMatch(
      new RegExp(`^299 opsapi-mock "tenant ${early} was evicted at .*: its 1 write\\(s\\) were dropped`),
    );
    expect((await h.call('GET', '/__mock/fixtures', { token })).headers.warning).toBeUndefined();
    expect(h.mock.control.orgs().length).toBe(MAX);
    const stats = (await h.call('GET', '/__mock/stats')).body.tenantLimit;
    expect(stats).toMatchObject({ inMemory: MAX, max: MAX, evictedWithWrites: 1, persisted: false });
    expect(stats.evicted).toBeGreaterThanOrEqual(THROWAWAY - MAX);
  });

  it('says nothing to a tenant evicted without writes: its world is the same seeded one', async () => {
    h = await injectHarness({ skus: SKUS, maxTenants: MAX });
    const reader = freshOrg('reader');
    const token = await h.token(adminClaims(reader));
    expect((await h.call('GET', '/v1/items/skus', { token, op: 'listSkus' })).status).toBe(200);
    await churn(h, MAX + 1);
    const back = await h.call('GET', '/v1/items/skus', { token, op: 'listSkus' });
    expect(back.status).toBe(200);
    expect(back.headers.warning).toBeUndefined();
  });

  describe('a tenant with webhook deliveries still scheduled', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver(503);
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('is never evicted, and becomes evictable once nothing is scheduled', async () => {
      h = await injectHarness({ skus: SKUS, maxTenants: MAX, retrySchedule: [0, 3600] });
      const busy = freshOrg('busy');
      const token = await h.token(adminClaims(busy));
      receiver.secrets.add((await h.call('GET', '/__mock/webhook-secret', { token })).body.secret as string);
      const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token,
        body: { endpoint: receiver.url, eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
        op: 'createWebhookSubscription',
      });
      expect(sub.status).toBe(201);
      const emitted = await h.call('POST', '/__mock/events', { token, body: { eventName: 'Warehouse.Stock.Updated' } });
      const id = emitted.body.notifications[0] as string;
      // The first attempt fails (503); the next one is an hour away.
      for (let i = 0; i < 100 && receiver.received === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await h.mock.control.idle();
      const before = await h.call('GET', `/v1/notifications/webhook/${id}`, { token, op: 'getWebhookNotification' });
      expect(before.body).toMatchObject({ status: 'Pending', attemptCount: 1 });
      expect(h.mock.control.tenant(busy).inspect()).toBeDefined();

      await churn(h, THROWAWAY, [busy]);
      // Still the same tenant: nothing requested `busy` during the churn, so had it been evicted it would be absent.
      expect(h.mock.control.orgs()).toContain(busy);
      expect(h.mock.control.orgs().length).toBeLessThanOrEqual(MAX);
      const after = await h.call('GET', `/v1/notifications/webhook/${id}`, { token, op: 'getWebhookNotification' });
      expect(after.body).toEqual(before.body);
      expect(h.mock.control.stats().pendingDeliveries).toBe(1);

      // Running the last retry (it fails: the schedule is exhausted) leaves nothing scheduled: the tenant may go.
      const advanced = await h.call('POST', '/__mock/clock', { token, body: { advanceSeconds: 3600 } });
      expect(advanced.status).toBe(200);
      await settleWebhooks(h);
      const done = await h.call('GET', `/v1/notifications/webhook/${id}`, { token, op: 'getWebhookNotification' });
      expect(done.body).toMatchObject({ status: 'Failure', attemptCount: 2 });
      await churn(h, MAX + 1);
      expect(h.mock.control.tenant(busy).inspect()).toBeUndefined();
      expect(receiver.badSignatures).toBe(0);
    });
  });
});
