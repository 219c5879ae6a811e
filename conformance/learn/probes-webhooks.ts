import { ShapeOf, type AttemptRecord, type EventIdCarrier } from '../../spec/decisions/index.js';
import { scenario, type Scenario } from '../checks/webhook-scenario.js';
import { SkipSignal } from '../context.js';
import type { Delivery } from '../wire/receiver.js';
import type { Probe } from './probe.js';
import { TRANSPORT_HEADERS } from '../observe/links.js';

/**
 * What a deployment's webhooks show where the reference is silent (Events, point 6: "Payload shape of a delivered
 * notification: not shown"; "The field or header that carries the event identifier: not shown"; Resources / Webhook
 * notification: attempt records "not shown beyond the identifier and the status"), from the webhook scenario the
 * runner's checks judge (`checks/webhook-scenario.ts`): the run's receiver is subscribed, a notification is caused,
 * delivered, followed to its final state, and retried by hand. The retry's status and the records read are scanned.
 */

/** `x-webhook-id` → `X-Webhook-Id`: how a header name is written in a decision. */
const spelt = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`);

/** The header whose value is a member of the payload (the event id both carry), or either alone. */
function eventIdOf(d: Delivery): EventIdCarrier | undefined {
  const payload = (d.json ?? {}) as Record<string, unknown>;
  const members = Object.entries(payload).filter(([, v]) => typeof v === 'string' && v.length >= 6);
  const headers = Object.entries(d.headers).filter(([name]) => !TRANSPORT_HEADERS.has(name.toLowerCase()));
  for (const [name, value] of headers) {
    const match = members.find(([, v]) => v === (Array.isArray(value) ? value[0] : value));
    if (match) return { header: spelt(name.toLowerCase()), field: match[0] };
  }
  const named = headers.find(([name]) => /(^|-)(event|webhook|delivery|message)-?id$/i.test(name));
  const field = members.find(([name]) => /^(id|eventId|event_id)$/.test(name))?.[0] ?? null;
  if (named) return { header: spelt(named[0].toLowerCase()), field };
  return field ? { header: null, field } : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How the delivered attempt tells it was accepted: a member true, else a member holding the 2xx status. */
function successOf(attempts: Record<string, unknown>[]): AttemptRecord['success'] {
  for (const a of attempts) {
    const flag = Object.entries(a).find(([k, v]) => v === true && /success|succeeded|ok|delivered|accepted/i.test(k));
    if (flag) return { field: flag[0], form: 'boolean' };
    const status = Object.entries(a).find(
      ([k, v]) => typeof v === 'number' && v >= 200 && v < 300 && /status|code/i.test(k),
    );
    if (status) return { field: status[0], form: 'status-code' };
  }
  return null;
}

/** The member and value that mark the manual attempt, compared with the automatic one before it. */
function manualOf(before: Record<string, unknown>[], after: Record<string, unknown>[]): AttemptRecord['manual'] {
  const known = new Set(before.map((a) => JSON.stringify(a.id)));
  const added = after.filter((a) => !known.has(JSON.stringify(a.id)));
  const automatic = before[0];
  if (!automatic) return null;
  for (const attempt of added) {
    const marks = Object.entries(attempt).filter(
      ([k, v]) => (typeof v === 'boolean' || typeof v === 'string') && automatic[k] !== v && k !== 'id',
    );
    const mark =
      marks.find(([k, v]) => /trigger|manual|kind|type|source|origin/i.test(k) || v === 'Manual') ??
      marks.find(([, v]) => typeof v === 'boolean');
    if (mark) return { field: mark[0], value: mark[1] as string | boolean };
  }
  return null;
}

const itemsOf = (read: Scenario['attempts']) => (typeof read === 'object' ? read.items.filter(isRecord) : []);

const webhooks: Probe = {
  name: 'webhooks',
  kind: 'webhooks',
  points: () => [
    'webhook-payload',
    'webhook-event-id',
    'webhook-attempt',
    'success-status:retryWebhookNotification',
    'list-form:listWebhookNotificationAttempts',
  ],
  async run(p) {
    let s: Scenario;
    try {
      s = await scenario(p.check);
    } catch (error) {
      if (!(error instanceof SkipSignal)) throw error;
      for (const id of this.points()) p.seen.cannot(id, error.reason);
      return;
    }
    const receiver = p.run.receiver;
    const deliveries = (receiver?.deliveries ?? []).filter((d) => d.path === receiver?.path && isRecord(d.json));
    if (deliveries.length === 0) {
      for (const id of this.points()) p.seen.cannot(id, s.problem ?? 'no delivery reached the receiver');
      return;
    }
    const shape = new ShapeOf();
    for (const d of deliveries) shape.add(d.json as Record<string, unknown>);
    p.seen.record('webhook-payload', shape.shape());
    const first = s.link?.delivery ?? deliveries[0];
    const carrier = first ? eventIdOf(first) : undefined;
    if (carrier) p.seen.record('webhook-event-id', carrier);
    else p.seen.cannot('webhook-event-id', 'no header or payload member carries an identifier of the event');
    const before = itemsOf(s.attempts);
    const after = itemsOf(s.attemptsAfterRetry);
    if (before.length === 0) return p.seen.cannot('webhook-attempt', s.problem ?? 'no attempt record was read');
    p.seen.record('webhook-attempt', { success: successOf(before), manual: manualOf(before, after) });
  },
};

export const WEBHOOK_PROBES: readonly Probe[] = [webhooks];
