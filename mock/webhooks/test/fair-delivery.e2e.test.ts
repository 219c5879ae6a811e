/** Fair delivery over tenants on a listening mock with real receivers: shares of the slots, and resets that stop. */
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { attempts, emit, subscribe, tenant } from './support.js';

const EVENT = 'Warehouse.Shipment.Shipped';

let open: { h?: Harness; receivers: WebhookReceiver[] } = { receivers: [] };
afterEach(async () => {
  // Receivers first: closing them ends the attempts still hanging on them, so the mock closes at once.
  await Promise.all(open.receivers.map((r) => r.close()));
  await open.h?.close();
  open = { receivers: [] };
});

async function receivers(n: number, answer: Parameters<typeof startReceiver>[0]): Promise<WebhookReceiver[]> {
  const started = await Promise.all(Array.from({ length: n }, () => startReceiver(answer)));
  open.receivers.push(...started);
  return started;
}

const count = (rs: readonly WebhookReceiver[]) => rs.reduce((n, r) => n + r.count, 0);

describe('fair delivery over tenants (real receivers)', () => {
  it("paces a tenant's attempts at --delivery-rate-per-tenant: a burst up to the limit, then one per refill", async () => {
    const h = await startHarness({ deliveryRatePerTenant: { limit: 4, windowMs: 200 } });
    open.h = h;
    const [receiver] = await receivers(1, {});
    const t = await tenant(h, 'paced');
    for (let i = 0; i < 12; i++) await subscribe(t, `${receiver!.url}/${i}`, EVENT);
    const ids = (await emit(t, EVENT)).notifications;
    await receiver!.waitForCount(12, 10_000);
    await h.mock.control.idle();
    const started = (await Promise.all(ids.map(async (id) => (await attempts(t, id))[0]))).map((a) =>
      Date.parse(a.startedAt),
    );
    started.sort((a, b) => a - b);
    // 4 at once, then one per 50 ms of refill: the 5th to the 12th span 350 ms (an attempt's recorded start may lag
    // its turn by the making of a connection; unpaced, all twelve start within a few milliseconds).
    expect(started[11]! - started[4]!).toBeGreaterThanOrEqual(200);
  });

  it("serves another tenant's event while one tenant's silent receivers hold every slot they may", async () => {
    // 4 slots, 2 per tenant, 1 per receiver of a tenant; a timeout far longer than the test's waits.
    const h = await startHarness({ deliveryConcurrency: 4, deliveryTimeoutMs: 20_000, retrySchedule: [0] });
    open.h = h;
    const silent = await receivers(6, () => 'hang');
    const [healthy] = await receivers(1, {});
    const noisy = await tenant(h, 'noisy');
    const quiet = await tenant(h, 'quiet');
    // More silent receivers than slots in all: before tenants were served in turn, they took all 4.
    for (const r of silent) for (let i = 0; i < 3; i++) await subscribe(noisy, r.url, EVENT);
    await subscribe(quiet, healthy!.url, EVENT);
    for (let i = 0; i < 3; i++) await emit(noisy, EVENT);
    await expect.poll(() => count(silent), { timeout: 5000 }).toBe(2);

    await emit(quiet, EVENT);
    await healthy!.waitForCount(1, 10_000);
    // Delivered while the noisy tenant's 2 attempts still hang (none of them ended: no Failure yet) and its 52 others wait.
    expect(count(silent)).toBe(2);
    const failed = await noisy.call(
      'GET',
      `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Failure')}`,
      { op: 'listWebhookNotifications' },
    );
    expect(failed.body.totalCount).toBe(0);
  });

  it.each([
    ["the tenant's own reset", { all: false }],
    ['a reset of every tenant', { all: true }],
  ])('starts no attempt of a tenant after %s is answered (those under way may end)', async (_what, body) => {
    const h = await startHarness({ deliveryConcurrency: 4, deliveryTimeoutMs: 20_000, retrySchedule: [0] });
    open.h = h;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Two receivers that hold every request until released, then answer 200: 2 attempts under way, 38 waiting.
    const held = await receivers(2, async () => {
      await released;
      return { status: 200 };
    });
    const t = await tenant(h, 'reset');
    for (const r of held) for (let i = 0; i < 20; i++) await subscribe(t, r.url, EVENT);
    await emit(t, EVENT);
    await expect.poll(() => count(held), { timeout: 5000 }).toBe(2);

    const reset = await t.call('POST', '/__mock/reset', { body });
    expect(reset.status).toBe(200);
    const afterAnswer = count(held);
    release();
    // Every attempt under way has ended and nothing else runs: the 38 waiting ones were dropped, never sent.
    await h.mock.control.idle();
    expect(afterAnswer).toBe(2);
    expect(count(held)).toBe(2);
  });

  it('without a reset, the same attempts waiting for a slot are all made (the counterpart of the test above)', async () => {
    const h = await startHarness({ deliveryConcurrency: 4, deliveryTimeoutMs: 20_000, retrySchedule: [0] });
    open.h = h;
    const held = await receivers(2, {});
    const t = await tenant(h, 'noreset');
    for (const r of held) for (let i = 0; i < 20; i++) await subscribe(t, r.url, EVENT);
    await emit(t, EVENT);
    await h.mock.control.idle();
    expect(count(held)).toBe(40);
  });
});
