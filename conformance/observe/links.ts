import type { Delivery } from '../wire/receiver.js';

/**
 * Which stored notification a delivery is. The reference shows neither the payload of a delivery ("Payload shape of
 * a delivered notification: not shown") nor where the event identifier travels ("The field or header that carries the
 * event identifier: not shown") nor the notification record beyond `id` and `status` (Resources / Webhook
 * notification). So the link is made by what is observable, whatever names a target uses: a value carried by the
 * delivery (body or header) and by exactly one of the notifications created since the receiver was subscribed.
 */

/** A notification record read from the history, by its documented `id`. */
export interface Candidate {
  id: string;
  record: Record<string, unknown>;
}

/** A delivery and the notification it is, with what showed it (and the shared value, when one did). */
export interface Link {
  delivery: Delivery;
  notification: Candidate;
  via: string;
  value?: string;
}

/** Headers every HTTP request may carry: never an identifier of a notification (nor the event identifier). */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'connection',
  'content-length',
  'content-type',
  'date',
  'host',
  'keep-alive',
  'transfer-encoding',
  'user-agent',
  'x-hmac-signature',
  'traceparent',
]);

/** Values shorter than this are too common to tell records apart (versions, flags, small counts). */
const MIN_LENGTH = 6;

/** Every string and number inside a JSON value (bounded depth), as text. */
function scalarsOf(value: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (typeof value === 'string' || typeof value === 'number') out.add(String(value));
  else if (value && typeof value === 'object' && depth < 6)
    for (const v of Array.isArray(value) ? value : Object.values(value)) scalarsOf(v, out, depth + 1);
  return out;
}

/** The values a delivery carries that could name its notification: body values and non-transport header values. */
function deliveryValues(d: Delivery): Set<string> {
  const out = scalarsOf(d.json);
  for (const [name, v] of Object.entries(d.headers))
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) for (const one of Array.isArray(v) ? v : [v]) if (one) out.add(one);
  return out;
}

/** Candidates that name one of the receiver's subscriptions or its endpoint, when some do (else all of them). */
function narrowed(candidates: readonly Candidate[], mine: ReadonlySet<string>): readonly Candidate[] {
  const ours = candidates.filter((n) => [...scalarsOf(n.record)].some((v) => mine.has(v)));
  return ours.length > 0 ? ours : candidates;
}

/**
 * The first delivery (oldest first) that names exactly one candidate: by the candidate's own id, else by another
 * value the two share. `mine`: the receiver's subscription ids and endpoint (a record naming one is a notification to
 * the receiver). Falls back to a lone candidate for a lone delivery.
 */
export function linkDelivery(
  deliveries: readonly Delivery[],
  all: readonly Candidate[],
  mine: ReadonlySet<string>,
): Link | undefined {
  const candidates = narrowed(all, mine);
  const values = deliveries.map((d) => ({ d, values: deliveryValues(d) }));
  for (const { d, values: vs } of values) {
    const byId = candidates.filter((n) => vs.has(n.id));
    if (byId.length === 1 && byId[0]) return { delivery: d, notification: byId[0], via: `its id ${byId[0].id}` };
  }
  const scalars = new Map(candidates.map((n) => [n.id, scalarsOf(n.record)]));
  for (const { d, values: vs } of values)
    for (const v of vs) {
      if (v.length < MIN_LENGTH) continue;
      const matches = candidates.filter((n) => scalars.get(n.id)?.has(v));
      if (matches.length === 1 && matches[0])
        return { delivery: d, notification: matches[0], via: `the value ${v}`, value: v };
    }
  const [lone] = candidates;
  const [first] = deliveries;
  if (candidates.length === 1 && deliveries.length === 1 && lone && first)
    return { delivery: first, notification: lone, via: 'the only notification created and the only delivery' };
  return undefined;
}

/**
 * When no value links a delivery to one record: a notification among those created since the receiver was subscribed
 * ("the newest notifications created after the write"), one that reached `Success` first. A delivered notification is
 * among them, so when none is `Success` the delivered one is not either.
 */
export function newestLink(
  deliveries: readonly Delivery[],
  all: readonly Candidate[],
  mine: ReadonlySet<string>,
): Link | undefined {
  const candidates = narrowed(all, mine);
  const pick = candidates.find((n) => n.record.status === 'Success') ?? candidates[0];
  const [first] = deliveries;
  if (!pick || !first) return undefined;
  return {
    delivery: first,
    notification: pick,
    via: 'being created after the receiver was subscribed (no shared value)',
  };
}

/** Whether a later delivery is the same notification as a linked one: it carries the value that linked it, or the same bytes. */
export function sameNotification(link: Link, d: Delivery): boolean {
  if (d.raw.equals(link.delivery.raw)) return true;
  const vs = deliveryValues(d);
  if (vs.has(link.notification.id)) return true;
  return link.value !== undefined && vs.has(link.value);
}
