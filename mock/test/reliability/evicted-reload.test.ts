/**
 * With a state file, a tenant that wrote is evicted like any other beyond `maxTenants` (memory stays bounded), and
 * its next request reloads it from the state: its writes, API keys, id sequences and clock offset, with no eviction
 * Warning, since nothing was lost (mock/store/tenant-loader.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { adminClaims } from '../../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness } from '../harness.js';

const MAX = 2;
const SKUS = 20;
const HOUR = 3600;

/** The sequence number an id ends with (`sub_<tag>_000002` -> 2). */
const sequenceOf = (id: string): number => Number(/_(\d+)$/.exec(id)?.[1]);

/** A SKU's `totalStock` as the list answers it. */
async function totalStock(h: InjectHarness, token: string, reference: string): Promise<number> {
  const filterBy = encodeURIComponent(`reference[Equals]${reference}`);
  const page = await h.call('GET', `/v1/items/skus?filterBy=${filterBy}`, { token, op: 'listSkus' });
  expect(page.headers.warning).toBeUndefined();
  return page.body.results[0].totalStock as number;
}

/** A tenant that wrote one of each: an API key, a webhook subscription, a stock level and a clock advance. */
interface Writer {
  org: string;
  token: string;
  key: string;
  keyId: string;
  subscriptionId: string;
  reference: string;
  /** `totalStock` of the SKU as seeded, and after the write. */
  seededStock: number;
  stock: number;
}

async function writeOneOfEach(h: InjectHarness): Promise<Writer> {
  const org = freshOrg('writer');
  const token = await h.token(adminClaims(org));
  const m = (await h.call('GET', '/__mock/fixtures', { token })).body as FixtureManifest;
  const key = await h.call('POST', '/v1/access/apiKeys', { token, body: { name: 'kept' }, op: 'createApiKey' });
  expect(key.status).toBe(201);
  const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
    token,
    body: { endpoint: 'http://127.0.0.1:9/hook', eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1 },
    op: 'createWebhookSubscription',
  });
  expect(sub.status).toBe(201);
  const seededStock = await totalStock(h, token, m.sku.reference);
  const put = await h.call('PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
    token,
    body: { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: seededStock + 4242 },
    op: 'updateSkuStock',
  });
  expect(put.status).toBe(204);
  const stock = await totalStock(h, token, m.sku.reference);
  expect(stock).not.toBe(seededStock);
  expect((await h.call('POST', '/__mock/clock', { token, body: { advanceSeconds: HOUR } })).status).toBe(200);
  return {
    org,
    token,
    key: key.body.key as string,
    keyId: key.body.id as string,
    subscriptionId: sub.body.id as string,
    reference: m.sku.reference,
    seededStock,
    stock,
  };
}

/** Two other tenants make a request each: with `maxTenants: 2`, the writer is the least recently used and goes. */
async function crowdOut(h: InjectHarness, writer: Writer): Promise<void> {
  for (let i = 0; i < MAX; i++) {
    const reply = await h.call('GET', '/v1/admin/tenants/self', {
      token: await h.token(adminClaims(freshOrg('other'))),
      op: 'getTenantSelf',
    });
    expect(reply.status).toBe(200);
  }
  expect(h.mock.control.orgs()).not.toContain(writer.org);
  expect(h.mock.control.tenant(writer.org).inspect()).toBeUndefined();
}

/** Everything the writer wrote is there, first seen with its API key alone; no answer carries a Warning. */
async function expectEverything(h: InjectHarness, writer: Writer): Promise<void> {
  const self = await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: writer.key, op: 'getTenantSelf' });
  expect(self.status).toBe(200);
  expect(self.body.orgCode).toBe(writer.org);
  expect(self.headers.warning).toBeUndefined();

  expect(await totalStock(h, writer.token, writer.reference)).toBe(writer.stock);
  const subs = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
    token: writer.token,
    op: 'listWebhookSubscriptions',
  });
  expect(subs.body.results.map((s: { id: string }) => s.id)).toContain(writer.subscriptionId);
  const clock = await h.call('GET', '/__mock/clock', { token: writer.token });
  expect(clock.body.offsetSeconds).toBeGreaterThanOrEqual(HOUR);
  for (const reply of [subs, clock]) expect(reply.headers.warning).toBeUndefined();
}

describe(`maxTenants: ${MAX} with a state file`, () => {
  const dir = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.state-'));
  let h: InjectHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('evicts a tenant that wrote, and its next request finds every write, its key valid, and no Warning', async () => {
    const stateFile = join(dir, 'reload.json');
    h = await injectHarness({ skus: SKUS, maxTenants: MAX, stateFile });
    const writer = await writeOneOfEach(h);
    await crowdOut(h, writer);
    expect(h.mock.control.orgs().length).toBeLessThanOrEqual(MAX);

    await expectEverything(h, writer);
    const limit = (await h.call('GET', '/__mock/stats')).body.tenantLimit;
    expect(limit).toMatchObject({ persisted: true, max: MAX });
    expect(limit.reloaded).toBeGreaterThanOrEqual(1);
    expect(limit.evictedWithWrites).toBeGreaterThanOrEqual(1);

    // The id sequences continue where they were: the next key and subscription take the next numbers.
    const key = await h.call('POST', '/v1/access/apiKeys', {
      token: writer.token,
      body: { name: 'after the reload' },
      op: 'createApiKey',
    });
    expect(sequenceOf(key.body.id as string)).toBe(sequenceOf(writer.keyId) + 1);
    const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      token: writer.token,
      body: { endpoint: 'http://127.0.0.1:9/other', eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1 },
      op: 'createWebhookSubscription',
    });
    expect(sequenceOf(sub.body.id as string)).toBe(sequenceOf(writer.subscriptionId) + 1);

    // Evicted again, then a restart: the state file still restores all of it.
    await crowdOut(h, writer);
    await h.close();
    h = await injectHarness({ skus: SKUS, maxTenants: MAX, stateFile });
    await expectEverything(h, writer);
    expect(
      h.mock.control
        .tenant(writer.org)
        .inspect()
        ?.apiKeys()
        .map((k) => k.id),
    ).toEqual([writer.keyId, key.body.id]);
  });

  it('forgets an evicted tenant too on a reset of every tenant: its API key no longer authenticates', async () => {
    const stateFile = join(dir, 'reset-all.json');
    h = await injectHarness({ skus: SKUS, maxTenants: MAX, stateFile });
    const writer = await writeOneOfEach(h);
    await crowdOut(h, writer);
    expect((await h.call('POST', '/__mock/reset', { body: { all: true } })).status).toBe(200);
    const self = await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: writer.key });
    expect(self.status).toBe(401);
    expect(await totalStock(h, writer.token, writer.reference)).toBe(writer.seededStock);
  });
});
