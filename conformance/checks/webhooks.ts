import { verifySignature } from '../../common/signature.js';
import { payloadComponentName } from '../../spec/webhooks.js';
import { isJsonMedia, mediaTypeOf } from '../contract/bodies.js';
import { contract } from '../contract/contract.js';
import type { CheckDef } from '../context.js';
import { expected } from '../contract/decided.js';
import type { CollectionRead } from '../observe/read-all.js';
import { HISTORY, header, scenario } from './webhook-scenario.js';

const base = { family: 'webhooks' as const, requires: ['webhooks' as const], phase: 'state' as const };

const is2xx = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** The records of an attempts read, or why there are none. */
const attemptsOf = (read: CollectionRead | string | undefined) => (typeof read === 'object' ? read.items : []);

/**
 * The webhook checks. Documented (MUST): delivery is an HTTP request with a JSON body to the endpoint (Events, 4);
 * `X-HMAC-Signature` is the HMAC-SHA256 of the raw body in 64 lowercase hex (Authentication, 5); the notification is
 * `Success` once the receiver answered 2xx (States and transitions); the attempts endpoint lists its attempts; a manual
 * retry is accepted. What the reference leaves open (method, payload fields, event id header, retry status, the record
 * of a retry, the state after it) is the contract's choice, judged at SHOULD.
 */
export function webhookChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'webhooks.delivery',
      title: 'A subscribed event is delivered to the endpoint as an HTTP request with a JSON body',
      clause: 'Events, points 3-4',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        const { accepted, asked } = s.subscriptions;
        const refused = asked.find((a) => !is2xx(a.exchange.status));
        c.expect(
          accepted.length > 0,
          'subscribing the receiver to the events of the environment',
          refused?.exchange,
          '2xx',
          `${asked.length} refused`,
        );
        if (s.causes.length > 0) {
          const ok = s.causes.filter((x) => is2xx(x.exchange.status));
          c.expect(
            ok.length > 0,
            `causing a notification (${s.causes.map((x) => x.label).join(', ')})`,
            s.causes[0]?.exchange,
            '2xx',
            s.causes.map((x) => String(x.exchange.status)).join(', '),
          );
        }
        c.exercised(`${accepted.length} subscription(s) of the receiver`);
        const d = s.firstDelivery;
        if (
          !c.expect(
            d !== undefined,
            'no delivery reached the receiver',
            s.causes[0]?.exchange,
            `a request to the receiver within ${c.run.options.deliveryTimeoutMs / 1000} s`,
            s.problem,
          ) ||
          !d
        )
          return;
        c.expect(
          d.json !== undefined,
          'the delivery body is not JSON',
          undefined,
          'a JSON body',
          d.raw.toString('utf8').slice(0, 200),
        );
        const type = header(d, 'content-type');
        c.expect(
          isJsonMedia(mediaTypeOf(type)),
          'the delivery content type (Data formats: Content-Type: application/json for bodies)',
          undefined,
          'application/json',
          type ?? '(none)',
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
        const secret = c.run.webhookSecret;
        if (!secret) return c.skip('no webhook secret: pass --webhook-secret');
        c.run.redactor.add(secret);
        const s = await scenario(c);
        const deliveries = (c.run.receiver?.deliveries ?? []).filter((d) => d.path === c.run.receiver?.path);
        if (deliveries.length === 0) return c.skip(s.problem ?? 'no delivery reached the receiver');
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
      title: 'The delivery is a POST whose payload matches the contract (WebhookPayload and the event version schema)',
      clause: 'Events, points 4-6 (the method and the payload shape are not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        const d = s.link?.delivery ?? s.firstDelivery;
        if (!d) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        c.expect(d.method === 'POST', 'the delivery method', undefined, 'POST', d.method);
        const { document } = contract();
        const validator = c.run.ruleEnv.validator;
        const generic = validator.validateSchema('WebhookPayload', d.json);
        c.expect(
          generic.ok,
          'the payload does not match WebhookPayload',
          undefined,
          'a valid WebhookPayload',
          generic.ok ? '' : generic.errors.join('; '),
        );
        const { eventName, eventVersion } = (d.json ?? {}) as { eventName?: unknown; eventVersion?: unknown };
        if (typeof eventName !== 'string' || typeof eventVersion !== 'number') return;
        const name = payloadComponentName(eventName, eventVersion);
        if (!document.components?.schemas?.[name]) return;
        const specific = validator.validateSchema(name, d.json);
        c.expect(
          specific.ok,
          `the payload does not match ${name}`,
          undefined,
          `a valid ${name}`,
          specific.ok ? '' : specific.errors.join('; '),
        );
      },
    },
    {
      ...base,
      id: 'webhooks.event-id',
      title: 'X-Event-Id carries the event identifier (the payload id)',
      clause: 'Events, points 4 and 6 (the field or header of the event identifier is not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        const d = s.link?.delivery ?? s.firstDelivery;
        if (!d) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        const carrier = expected<'webhook-event-id'>(c.run, 'webhook-event-id', { header: 'X-Event-Id', field: 'id' });
        const id = (d.json as Record<string, unknown> | undefined)?.[carrier.field ?? 'id'];
        c.expect(
          id !== undefined && header(d, carrier.header ?? 'x-event-id') === id,
          'X-Event-Id differs from the payload id',
          undefined,
          String(id),
          header(d, 'x-event-id') ?? '(none)',
        );
      },
    },
    {
      ...base,
      id: 'webhooks.notification-success',
      title: 'The stored notification of a delivery the receiver accepted reaches Success and reads back with GET',
      clause: 'States and transitions (Pending -> Success on a 2xx); Events, point 4; Endpoints / Notification history',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.firstDelivery) return c.skip(s.problem ?? 'no delivery');
        c.exercised();
        if (
          !c.expect(
            s.link !== undefined && s.final !== undefined,
            `the notification of the delivery was not found in GET ${HISTORY}`,
            undefined,
            'a stored notification created after the receiver was subscribed',
            s.problem,
          ) ||
          !s.link ||
          !s.final
        )
          return;
        const id = s.link.notification.id;
        c.inform(`notification ${id} matched to its delivery by ${s.link.via}`);
        const b = s.final.json as { id?: unknown } | undefined;
        c.expect(
          is2xx(s.final.status) && (b?.id === undefined || b.id === id),
          `GET ${HISTORY}/${id}`,
          s.final,
          '2xx with the notification',
          `${s.final.status}${b?.id !== undefined ? ` id ${String(b.id)}` : ''}`,
        );
        c.expect(
          s.finalStatus === 'Success',
          'the delivered notification is not Success',
          s.final,
          'Success',
          String(s.finalStatus),
        );
      },
    },
    {
      ...base,
      id: 'webhooks.attempts',
      title: 'The delivery attempts of a notification are listed',
      clause:
        'Endpoints / Notification history (attempts); Events, point 4 (each notification and its attempts are stored)',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.attempts) return c.skip(s.problem ?? 'no notification');
        c.exercised();
        if (typeof s.attempts === 'string') return c.fail(s.attempts, undefined, 'a 2xx list of attempts');
        c.expect(
          s.attempts.items.length >= 1,
          `GET ${HISTORY}/{id}/attempts lists no attempt`,
          s.attempts.first,
          'at least one attempt record',
          `${s.attempts.items.length} (${s.attempts.form})`,
        );
      },
    },
    {
      ...base,
      id: 'webhooks.attempts-detail',
      title: 'The attempts list is the page envelope and records the delivered attempt with success true',
      clause: 'Endpoints / Notification history (the attempt record is not shown beyond id and status)',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        if (typeof s.attempts !== 'object') return c.skip(s.problem ?? 'no attempts read');
        c.exercised();
        const form = expected<'list-form'>(c.run, 'list-form:listWebhookNotificationAttempts', 'envelope');
        const record = expected<'webhook-attempt'>(c.run, 'webhook-attempt', {
          success: { field: 'success', form: 'boolean' },
          manual: { field: 'trigger', value: 'Manual' },
        });
        c.expect(s.attempts.form === form, 'the attempts list form', s.attempts.first, form, s.attempts.form);
        c.expect(
          s.attempts.items.some((a) =>
            record.success?.form === 'status-code'
              ? typeof a[record.success.field] === 'number' &&
                (a[record.success.field] as number) >= 200 &&
                (a[record.success.field] as number) < 300
              : a[record.success?.field ?? 'success'] === true,
          ),
          'no successful attempt is recorded',
          s.attempts.first,
          'an attempt with success true',
        );
      },
    },
    {
      ...base,
      id: 'webhooks.manual-retry',
      title: 'A manual retry of a notification is accepted',
      clause: 'Endpoints / Notification history (retry; "Request body and response of the retry operation: not shown")',
      level: 'MUST',
      async run(c) {
        const s = await scenario(c);
        if (!s.retry) return c.skip(s.problem ?? 'no notification to retry');
        c.exercised();
        c.expect(is2xx(s.retry.status), `POST ${HISTORY}/{id}/retry`, s.retry, '2xx', String(s.retry.status));
      },
    },
    {
      ...base,
      id: 'webhooks.manual-retry-delivers',
      title: 'A manual retry delivers the notification again and it ends Success',
      clause: 'Endpoints / Notification history (retry; "the state after a manual retry: not shown")',
      level: 'SHOULD',
      async run(c) {
        const s = await scenario(c);
        if (!s.retry || !is2xx(s.retry.status)) return c.skip(s.problem ?? 'no accepted retry');
        c.exercised();
        c.expect(
          s.retryDelivery !== undefined,
          'the retry did not deliver the notification again',
          s.retry,
          `a new delivery of notification ${s.link?.notification.id}`,
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
        const status = expected<'success-status'>(c.run, 'success-status:retryWebhookNotification', 202);
        c.expect(
          s.retry.status === status,
          `POST ${HISTORY}/{id}/retry`,
          s.retry,
          String(status),
          String(s.retry.status),
        );
        const attempts = attemptsOf(s.attemptsAfterRetry);
        c.expect(
          attempts.some((a) => {
            const record = expected<'webhook-attempt'>(c.run, 'webhook-attempt', {
              success: { field: 'success', form: 'boolean' },
              manual: { field: 'trigger', value: 'Manual' },
            });
            return a[record.manual?.field ?? 'trigger'] === (record.manual?.value ?? 'Manual');
          }),
          'no Manual attempt recorded',
          typeof s.attemptsAfterRetry === 'object' ? s.attemptsAfterRetry.first : undefined,
          'an attempt with trigger Manual',
          JSON.stringify(attempts.map((a) => a.trigger)),
        );
      },
    },
  ];
}
