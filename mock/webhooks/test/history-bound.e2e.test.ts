import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../common/closed-port.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { emit, notification, subscribe, tenant } from './support.js';

describe('notification history is bounded per tenant', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ maxNotifications: 20, retrySchedule: [0], deliveryTimeoutMs: 500 });
  });
  afterAll(async () => h?.close());

  it('forgets the oldest finished notifications beyond --max-notifications and keeps the newest', async () => {
    const t = await tenant(h, 'bound');
    const closed = await closedPort();
    await subscribe(t, `http://127.0.0.1:${closed}/hook`, 'Warehouse.Shipment.Shipped');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(...(await emit(t, 'Warehouse.Shipment.Shipped')).notifications);
      await h.mock.control.idle();
    }
    const page = await t.call('GET', '/v1/notifications/webhook?pageSize=100', { op: 'listWebhookNotifications' });
    expect(page.body.totalCount).toBeLessThanOrEqual(20);
    expect(page.body.totalCount).toBeGreaterThanOrEqual(19);
    expect((await notification(t, ids[ids.length - 1]!)).status).toBe('Failure');
    const oldest = await t.call('GET', `/v1/notifications/webhook/${ids[0]}`, { op: 'getWebhookNotification' });
    expect(oldest.status).toBe(404);
  });
});
