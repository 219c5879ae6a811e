/** Webhook delivery concurrency (per-receiver slots) and retries on real time. */
import { describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness.js';
import { startReceiver } from '../../../common/receiver.js';
import { attempts, emit, notification, subscribe, tenant, until } from './support.js';

const EVENT = 'Warehouse.Shipment.Shipped';

describe('delivery concurrency and real-time retries', () => {
  it('notifications to a hanging receiver take only its share of the slots; others are served at once', async () => {
    // 4 slots in all, 1 per receiver; more hanging notifications than slots.
    const h = await startHarness({ deliveryTimeoutMs: 600, deliveryConcurrency: 4, retrySchedule: [0] });
    const hanging = await startReceiver(() => 'hang');
    const healthy = await startReceiver();
    try {
      const t = await tenant(h);
      await subscribe(t, hanging.url, EVENT);
      await subscribe(t, healthy.url, 'Items.Sku.Created', 2);
      for (let i = 0; i < 5; i++) await emit(t, EVENT);
      for (let i = 0; i < 5; i++) await emit(t, 'Items.Sku.Created');
      await healthy.waitForCount(5, 10_000);
      // Served before the first hanging attempt timed out: nothing waited behind the hanging receiver.
      const failedEarly = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Failure')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(failedEarly.body.totalCount).toBe(0);
      expect(hanging.received).toHaveLength(1);
      await h.mock.control.idle();
      // One at a time, each costs its own timeout, none is lost.
      expect(hanging.received).toHaveLength(5);
      const failed = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Failure')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(failed.body.totalCount).toBe(5);
      const succeeded = await t.call(
        'GET',
        `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Success')}`,
        { op: 'listWebhookNotifications' },
      );
      expect(succeeded.body.totalCount).toBe(5);
    } finally {
      await h.close();
      await Promise.all([hanging.close(), healthy.close()]);
    }
  });

  it('runs retries on real time when the clock is not advanced', async () => {
    const h = await startHarness({ deliveryTimeoutMs: 1000, retrySchedule: [0, 0.2, 0.2] });
    const r = await startReceiver(({ index: i }) => (i < 2 ? { status: 500 } : { status: 200 }));
    try {
      const t = await tenant(h);
      await subscribe(t, r.url, EVENT);
      const emitted = Date.now();
      const id = (await emit(t, EVENT)).notifications[0]!;
      const got = await r.waitForCount(3, 10_000);
      // Each retry is due at the previous attempt's due time plus its delay (mock/webhooks/policy.ts), so the retries
      // come 200 and 400 ms after the notification, never before; the gap between two arrivals is shorter when the
      // earlier one ran late on a busy machine, so the arrivals are measured from the emission (50 ms of slack each).
      expect(got[1]!.at - emitted).toBeGreaterThanOrEqual(150);
      expect(got[2]!.at - emitted).toBeGreaterThanOrEqual(350);
      await until(async () => (await notification(t, id)).status === 'Success', 10_000, 'Success');
      expect((await attempts(t, id)).map((a) => a.success)).toEqual([false, false, true]);
    } finally {
      await h.close();
      await r.close();
    }
  });
});
