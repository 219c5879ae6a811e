import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import type { FixtureManifest } from '../../../fixtures/seed/model.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { tenant, type Tenant } from './support.js';

const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';
const MAX_SUBSCRIPTIONS = 20;
const MAX_PENDING = 50;
const UPDATES = 10;

/**
 * The audit's crash, bounded (docs/DESIGN.md, "Shared sandbox"): a tenant subscribes as often as it may to a receiver
 * that never answers and keeps writing. A real mock on a loopback port, a real receiver holding every request open:
 * the tenant's Pending notifications never exceed their bound, the oldest are ended as Failure with the reason, and
 * another tenant is answered throughout.
 */
describe('a tenant fanning out to a receiver that never answers', () => {
  let h: Harness;
  let silent: WebhookReceiver;

  beforeAll(async () => {
    silent = await startReceiver(() => 'hang');
    h = await startHarness({
      maxSubscriptions: MAX_SUBSCRIPTIONS,
      maxPendingNotifications: MAX_PENDING,
      deliveryTimeoutMs: 5000,
    });
  });
  afterAll(async () => {
    // The receiver first: its held requests end, so the mock's close does not wait for their timeout.
    await silent?.close();
    await h?.close();
  });

  const pendingCount = async (t: Tenant) => {
    const page = await t.call('GET', '/v1/notifications/webhook?pageSize=1&filterBy=status%5BEquals%5DPending', {
      op: 'listWebhookNotifications',
    });
    expect(page.status, page.text).toBe(200);
    return page.body.totalCount as number;
  };

  it('never holds more Pending notifications than the bound, and keeps answering another tenant', async () => {
    const noisy = await tenant(h, 'noisy');
    const quiet = await tenant(h, 'quiet');
    const body = { endpoint: `${silent.url}/hook`, eventName: 'Warehouse.Stock.Updated', eventVersion: 1 };
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++)
      expect((await noisy.call('POST', SUBSCRIPTIONS, { body })).status).toBe(201);
    const refused = await noisy.call('POST', SUBSCRIPTIONS, { body, op: 'createWebhookSubscription' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('COMMON.TENANT.PLAN_LIMIT_EXCEEDED');

    const m = (await noisy.call('GET', '/__mock/fixtures')).body as FixtureManifest;
    const place = { locationReference: m.sku.locationReference, lotId: m.sku.lotId };
    for (let i = 0; i < UPDATES; i++) {
      const put = await noisy.call('PUT', `/v1/items/skus/${encodeURIComponent(m.sku.reference)}/stock`, {
        body: { ...place, stock: i + 1 },
        op: 'updateSkuStock',
      });
      expect(put.status, put.text).toBe(204);
      expect(await pendingCount(noisy)).toBeLessThanOrEqual(MAX_PENDING);
      const list = await quiet.call('GET', '/v1/items/skus?pageSize=5', { op: 'listSkus' });
      expect(list.status).toBe(200);
    }

    const all = await noisy.call('GET', '/v1/notifications/webhook?pageSize=1000', { op: 'listWebhookNotifications' });
    expect(all.body.totalCount).toBe(MAX_SUBSCRIPTIONS * UPDATES);
    const ended = all.body.results.filter((n: { failureReason?: string | null }) => n.failureReason);
    expect(ended.length).toBeGreaterThanOrEqual(MAX_SUBSCRIPTIONS * UPDATES - MAX_PENDING);
    expect(ended.every((n: { status: string }) => n.status === 'Failure')).toBe(true);
    expect(await pendingCount(noisy)).toBe(MAX_PENDING);
    // The receiver saw requests: the deliveries were really under way while the bound held.
    expect(silent.count).toBeGreaterThan(0);
  });
});
