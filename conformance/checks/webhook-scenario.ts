import type { Exchange } from '../client.js';
import type { CheckContext } from '../context.js';
import { pageOf, poll } from '../helpers.js';
import { mockAdminHeaders } from '../mock-admin.js';
import type { Delivery } from '../receiver.js';
import { eventVersions, subscribe } from './subscriptions.js';

export const HISTORY = '/v1/notifications/webhook';

/** What the webhook scenario saw, step by step (each check judges one part). */
export interface Scenario {
  eventName: string;
  eventVersion: number;
  subscribe: Exchange;
  cause?: Exchange;
  delivery?: Delivery;
  payload?: Record<string, unknown>;
  /** The stored notification once it reached a final state, and the read that showed it. */
  notificationId?: string;
  final?: Exchange;
  attempts?: Exchange;
  retry?: Exchange;
  retryDelivery?: Delivery;
  afterRetry?: Exchange;
  attemptsAfterRetry?: Exchange;
  problem?: string;
}

function parse(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function header(d: Delivery, name: string): string | undefined {
  const v = d.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Subscribes the run's receiver, causes one notification (a stock update, or `POST /__mock/events` on a mock),
 * waits for the delivery, follows the notification to a final state through the history endpoints, then retries it
 * manually. Memoised: every webhook check judges a part of this one scenario.
 */
export function scenario(c: CheckContext): Promise<Scenario> {
  return c.run.memo('webhooks:scenario', async () => {
    const run = c.run;
    // How long to wait for a delivery, and for a notification to reach a final state (--delivery-timeout).
    const wait = run.options.deliveryTimeoutMs;
    const receiver = run.receiver;
    if (!receiver) return c.skip('the webhook receiver is not running');
    const versions = await eventVersions(run);
    const canWrite = run.options.allowWrites === true && run.data.sku !== undefined;
    let chosen: { eventName: string; eventVersion: number } | undefined;
    if (canWrite)
      chosen = versions
        .filter((v) => v.eventName === 'Warehouse.Stock.Updated')
        .sort((a, b) => b.eventVersion - a.eventVersion)[0];
    if (!chosen && run.mockAdmin)
      chosen = versions.find((v) => v.eventName === 'Warehouse.Shipment.Shipped') ?? versions[0];
    if (!chosen)
      return c.skip(
        'cannot cause a notification: pass --allow-writes with --data (a stock update), or target a mock with its admin API',
      );
    const s: Scenario = {
      ...chosen,
      subscribe: await subscribe(run, 'webhooks', chosen.eventName, chosen.eventVersion, receiver.url),
    };
    if (s.subscribe.status < 200 || s.subscribe.status >= 300) {
      s.problem = `the subscription was refused (${s.subscribe.status})`;
      return s;
    }
    const since = Date.now();
    if (canWrite && chosen.eventName === 'Warehouse.Stock.Updated') {
      const sku = run.data.sku as NonNullable<typeof run.data.sku>;
      s.cause = await run.client.send('webhooks', {
        method: 'PUT',
        path: `/v1/items/skus/${encodeURIComponent(sku.reference)}/stock`,
        json: { locationReference: sku.locationReference, lotId: sku.lotId, stock: 11 },
      });
    } else {
      s.cause = await run.client.send('webhooks', {
        method: 'POST',
        path: '/__mock/events',
        headers: mockAdminHeaders(run),
        json: { eventName: chosen.eventName, eventVersion: chosen.eventVersion },
      });
    }
    s.delivery = await receiver.waitFor(
      (d) => d.at >= since && d.path === receiver.path && parse(d.raw)?.eventName === chosen.eventName,
      wait,
    );
    if (!s.delivery) {
      s.problem = `no delivery within ${wait / 1000} s`;
      return s;
    }
    s.payload = parse(s.delivery.raw);
    const eventId = typeof s.payload?.id === 'string' ? s.payload.id : header(s.delivery, 'x-event-id');
    // Follow the notification of this event to a final state.
    const found = await poll(
      async () => {
        const ex = await run.client.send('webhooks', {
          method: 'GET',
          path: HISTORY,
          query: { pageSize: 1000, sortBy: '-createdAt' },
        });
        const item = pageOf(ex)?.results.find(
          (n) => n.eventId === eventId && n.subscriptionId === (s.subscribe.json as { id?: string }).id,
        );
        if (!item || item.status === 'Pending') return undefined;
        return item;
      },
      wait,
      150,
    );
    if (!found || typeof found.id !== 'string') {
      s.problem = `the notification of event ${String(eventId)} did not reach a final state in the history within ${wait / 1000} s`;
      return s;
    }
    const id = found.id;
    s.notificationId = id;
    s.final = await run.client.send('webhooks', { method: 'GET', path: `${HISTORY}/${encodeURIComponent(id)}` });
    s.attempts = await run.client.send('webhooks', {
      method: 'GET',
      path: `${HISTORY}/${encodeURIComponent(id)}/attempts`,
    });
    // Manual retry: a new delivery of the same event, recorded as a Manual attempt.
    const retriedAt = Date.now();
    s.retry = await run.client.send('webhooks', { method: 'POST', path: `${HISTORY}/${encodeURIComponent(id)}/retry` });
    if (s.retry.status >= 200 && s.retry.status < 300) {
      s.retryDelivery = await receiver.waitFor(
        (d) => d.at >= retriedAt && d !== s.delivery && parse(d.raw)?.id === s.payload?.id,
        wait,
      );
      await poll(
        async () => {
          const ex = await run.client.send('webhooks', { method: 'GET', path: `${HISTORY}/${encodeURIComponent(id)}` });
          s.afterRetry = ex;
          const status = (ex.json as { status?: unknown } | undefined)?.status;
          return status === 'Success' || status === 'Failure' ? true : undefined;
        },
        wait,
        100,
      );
      s.attemptsAfterRetry = await run.client.send('webhooks', {
        method: 'GET',
        path: `${HISTORY}/${encodeURIComponent(id)}/attempts`,
      });
    }
    return s;
  });
}
