/** Webhook delivery concurrency (per-receiver slots) and retries on real time. */
import { describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness.js';
import { startReceiver } from '../../../common/receiver.js';
import { attempts, emit, notification, subscribe, tenant, until } from './support.js';

const EVENT = 'Warehouse.Shipment.Shipped';

describe('delivery concurrency and real-time retries', () => {
  it('notifications to a hanging receiver take only its share of the slots; others are served at once', async () => {
    // 4 slots in all, 1 per receiver; more hanging notifications than slots. The hanging receiver holds each request
    // until the test lets it go, far within the attempt's timeout: what is proved does not race a timer on a busy
    // machine (an attempt that times out is mock/webhooks/test/delivery.e2e.test.ts and delivery-failures).
    const h = await startHarness({ deliveryTimeoutMs: 60_000, deliveryConcurrency: 4, retrySchedule: [0] });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    let mostHeld = 0;
    const hanging = await startReceiver(async (_delivery, signal) => {
      mostHeld = Math.max(mostHeld, ++held);
      await Promise.race([released, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
      held--;
      return { status: 200 };
    });
    const healthy = await startReceiver();
    try {
      const t = await tenant(h);
      await subscribe(t, hanging.url, EVENT);
      await subscribe(t, healthy.url, 'Items.Sku.Created', 2);
      for (let i = 0; i < 5; i++) await emit(t, EVENT);
      for (let i = 0; i < 5; i++) await emit(t, 'Items.Sku.Created');
      // Served while the hanging receiver holds its first attempt: nothing waited behind it.
      await healthy.waitForCount(5, 10_000);
      expect(hanging.received).toHaveLength(1);
      const byStatus = async (status: string) =>
        (
          await t.call('GET', `/v1/notifications/webhook?filterBy=${encodeURIComponent(`status[Equals]${status}`)}`, {
            op: 'listWebhookNotifications',
          })
        ).body.totalCount;
      expect(await byStatus('Success')).toBe(5);
      expect(await byStatus('Pending')).toBe(5);
      release();
      await h.mock.control.idle();
      // Then one at a time, none lost.
      expect(hanging.received).toHaveLength(5);
      expect(mostHeld).toBe(1);
      expect(await byStatus('Success')).toBe(10);
    } finally {
      release();
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
