import { verifySignature } from '../../common/signature.js';
import { payloadComponentName } from '../../spec/webhooks.js';
import { contract } from '../contract.js';
import type { CheckDef } from '../context.js';
import { pageOf } from '../helpers.js';
import { HISTORY, header, scenario } from './webhook-scenario.js';

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
            `a POST to the receiver within ${c.run.options.deliveryTimeoutMs / 1000} s`,
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
