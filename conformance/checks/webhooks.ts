import { verifySignature } from '../../common/signature.js';
import { payloadComponentName } from '../../spec/webhooks.js';
import type { Exchange } from '../client.js';
import { contract } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { pageOf, poll } from '../helpers.js';
import type { Delivery } from '../receiver.js';
import { eventVersions, subscribe } from './writes.js';

const HISTORY = '/v1/notifications/webhook';
const DELIVERY_TIMEOUT_MS = 10_000;

/** What the webhook scenario saw, step by step (each check judges one part). */
interface Scenario {
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

function header(d: Delivery, name: string): string | undefined {
  const v = d.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Subscribes the run's receiver, causes one notification (a stock update, or `POST /__mock/events` on a mock),
 * waits for the delivery, follows the notification to a final state through the history endpoints, then retries it
 * manually. Memoised: every webhook check judges a part of this one scenario.
 */
function scenario(c: CheckContext): Promise<Scenario> {
  return c.run.memo('webhooks:scenario', async () => {
    const run = c.run;
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
        json: { eventName: chosen.eventName, eventVersion: chosen.eventVersion },
      });
    }
    s.delivery = await receiver.waitFor(
      (d) => d.at >= since && d.path === receiver.path && parse(d.raw)?.eventName === chosen.eventName,
      DELIVERY_TIMEOUT_MS,
    );
    if (!s.delivery) {
      s.problem = `no delivery within ${DELIVERY_TIMEOUT_MS / 1000} s`;
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
      DELIVERY_TIMEOUT_MS,
      150,
    );
    if (!found || typeof found.id !== 'string') {
      s.problem = `the notification of event ${String(eventId)} did not reach a final state in the history within ${DELIVERY_TIMEOUT_MS / 1000} s`;
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
        DELIVERY_TIMEOUT_MS,
      );
      await poll(
        async () => {
          const ex = await run.client.send('webhooks', { method: 'GET', path: `${HISTORY}/${encodeURIComponent(id)}` });
          s.afterRetry = ex;
          const status = (ex.json as { status?: unknown } | undefined)?.status;
          return status === 'Success' || status === 'Failure' ? true : undefined;
        },
        DELIVERY_TIMEOUT_MS,
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

const base = { family: 'webhooks' as const, requires: ['webhooks' as const], phase: 'state' as const };

export function webhookChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'webhooks.delivery',
      title: 'A subscribed event is delivered to the endpoint as a JSON POST',
      clause: 'Events, point 4',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        c.expect(
          s.subscribe.status >= 200 && s.subscribe.status < 300,
          'subscribing the receiver',
          s.subscribe,
          '2xx',
          String(s.subscribe.status),
        );
        if (s.cause)
          c.expect(
            s.cause.status >= 200 && s.cause.status < 300,
            'causing the event',
            s.cause,
            '2xx',
            String(s.cause.status),
          );
        c.exercised();
        if (
          !c.expect(
            s.delivery !== undefined,
            `no delivery of ${s.eventName} v${s.eventVersion} reached the receiver`,
            s.cause,
            `a POST to the receiver within ${DELIVERY_TIMEOUT_MS / 1000} s`,
            s.problem,
          ) ||
          !s.delivery
        )
          return;
        c.expect(
          s.payload !== undefined,
          'the delivery body is not a JSON object',
          undefined,
          'a JSON object',
          s.delivery.raw.toString('utf8').slice(0, 200),
        );
        c.expect(
          /^application\/json/i.test(header(s.delivery, 'content-type') ?? ''),
          'the delivery content type',
          undefined,
          'application/json',
          header(s.delivery, 'content-type') ?? '(none)',
        );
      },
    },
    {
      ...base,
      id: 'webhooks.signature',
      title: 'X-HMAC-Signature is the HMAC-SHA256 of the raw body, 64 lowercase hex characters',
      clause: 'Authentication, point 5',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        const secret = c.run.webhookSecret;
        if (!secret) return c.skip('no webhook secret: pass --webhook-secret');
        c.run.redactor.add(secret);
        const deliveries = (c.run.receiver?.deliveries ?? []).filter((d) => d.path === c.run.receiver?.path);
        if (deliveries.length === 0) return c.skip(s.problem ?? 'no delivery to verify');
        for (const d of deliveries) {
          c.exercised();
          const signature = header(d, 'x-hmac-signature');
          c.expect(
            verifySignature(d.raw, signature, secret),
            'the signature does not verify on the raw body',
            undefined,
            'HMAC-SHA256(raw body, secret) as 64 lowercase hex characters',
            `${signature ?? '(no X-HMAC-Signature header)'} for ${d.raw.length} bytes: ${d.raw.toString('utf8').slice(0, 160)}`,
          );
        }
      },
    },
    {
      ...base,
      id: 'webhooks.payload',
      title: 'The delivered payload matches the contract (WebhookPayload and the event version schema)',
      clause: 'Events, point 5 (the payload shape is not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        if (!s.payload) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        const { validator, document } = contract();
        const generic = validator.validateSchema('WebhookPayload', s.payload);
        c.expect(
          generic.ok,
          'the payload does not match WebhookPayload',
          undefined,
          'a valid WebhookPayload',
          generic.ok ? '' : generic.errors.join('; '),
        );
        const name = payloadComponentName(s.eventName, s.eventVersion);
        if (document.components?.schemas?.[name]) {
          const specific = validator.validateSchema(name, s.payload);
          c.expect(
            specific.ok,
            `the payload does not match ${name}`,
            undefined,
            `a valid ${name}`,
            specific.ok ? '' : specific.errors.join('; '),
          );
        }
      },
    },
    {
      ...base,
      id: 'webhooks.event-id',
      title: 'X-Event-Id carries the event identifier (the payload id)',
      clause: 'Events (the event id header is not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        if (!s.delivery) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        c.expect(
          header(s.delivery, 'x-event-id') === s.payload?.id,
          'X-Event-Id differs from the payload id',
          undefined,
          String(s.payload?.id),
          header(s.delivery, 'x-event-id') ?? '(none)',
        );
      },
    },
    {
      ...base,
      id: 'webhooks.notification-success',
      title: 'The stored notification reaches Success and reads back with GET',
      clause: 'States and transitions; Endpoints / Notification history',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.delivery) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        if (
          !c.expect(
            s.final !== undefined,
            'the notification was not found in GET /v1/notifications/webhook',
            undefined,
            'a notification for the event',
            s.problem,
          ) ||
          !s.final
        )
          return;
        const b = s.final.json as { id?: unknown; status?: unknown } | undefined;
        c.expect(
          s.final.status === 200 && b?.id === s.notificationId,
          `GET ${HISTORY}/{id}`,
          s.final,
          '200 with the notification',
          String(s.final.status),
        );
        c.expect(
          b?.status === 'Success',
          'the delivered notification is not Success',
          s.final,
          'Success',
          String(b?.status),
        );
      },
    },
    {
      ...base,
      id: 'webhooks.attempts',
      title: 'The delivery attempts of a notification are recorded',
      clause: 'Endpoints / Notification history (attempts)',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.attempts) return c.skip(s.problem ?? 'no notification');
        c.exercised();
        const page = pageOf(s.attempts);
        c.expect(
          s.attempts.status === 200 && page !== undefined && page.totalCount >= 1,
          `GET ${HISTORY}/{id}/attempts`,
          s.attempts,
          'a page with at least one attempt',
          `${s.attempts.status} ${page ? `${page.totalCount} attempts` : ''}`,
        );
        c.expect(
          page?.results.some((a) => a.success === true) ?? false,
          'no successful attempt is recorded',
          s.attempts,
          'an attempt with success true',
        );
      },
    },
    {
      ...base,
      id: 'webhooks.manual-retry',
      title: 'A manual retry is accepted and delivers the notification again',
      clause: 'Endpoints / Notification history (retry)',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.retry) return c.skip(s.problem ?? 'no notification to retry');
        c.exercised();
        if (
          !c.expect(
            s.retry.status >= 200 && s.retry.status < 300,
            `POST ${HISTORY}/{id}/retry`,
            s.retry,
            '2xx',
            String(s.retry.status),
          )
        )
          return;
        c.expect(
          s.retryDelivery !== undefined,
          'the retry did not deliver the event again',
          s.retry,
          `a second delivery of event ${String(s.payload?.id)}`,
          'none',
        );
        const status = (s.afterRetry?.json as { status?: unknown } | undefined)?.status;
        c.expect(
          status === 'Success',
          'the notification did not end Success after the manual retry',
          s.afterRetry,
          'Success',
          String(status),
        );
      },
    },
    {
      ...base,
      id: 'webhooks.manual-retry-recorded',
      title: 'The manual retry answers 202 and is recorded as a Manual attempt',
      clause: 'Endpoints / Notification history (retry; its status and record are not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        if (!s.retry || !s.attemptsAfterRetry) return c.skip(s.problem ?? 'no retry');
        c.exercised();
        c.expect(s.retry.status === 202, `POST ${HISTORY}/{id}/retry`, s.retry, '202', String(s.retry.status));
        const attempts = pageOf(s.attemptsAfterRetry)?.results ?? [];
        c.expect(
          attempts.some((a) => a.trigger === 'Manual'),
          'no Manual attempt recorded',
          s.attemptsAfterRetry,
          'an attempt with trigger Manual',
          JSON.stringify(attempts.map((a) => a.trigger)),
        );
      },
    },
  ];
}
