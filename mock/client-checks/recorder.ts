import { createHash } from 'node:crypto';
import { redactQueryString } from '../../common/report/redaction.js';
import type {
  AnsweredBy,
  AuthSeen,
  DeliveryAnswer,
  DeliveryKind,
  ListParameters,
  ObservedDelivery,
  ObservedRequest,
  ObservedSubscription,
  Overflow,
  Perturbation,
  PlannedDelivery,
  Trace,
} from './trace.js';

/** How much one run keeps (oldest dropped first, counted in `overflow`; inferred: a long run must not grow). */
interface TraceLimits {
  requests: number;
  deliveries: number;
  subscriptions: number;
  perturbations: number;
  eventReads: number;
}

const DEFAULT_TRACE_LIMITS: TraceLimits = {
  requests: 5000,
  deliveries: 2000,
  subscriptions: 500,
  perturbations: 1000,
  eventReads: 500,
};

/** A `/v1` request and its answer as the mock hands them over (plain values; credentials are reduced here). */
interface RequestInput {
  at: number;
  answeredAt: number;
  method: string;
  path: string;
  /** The query string as received, without `?`. */
  rawQuery: string;
  operationId?: string;
  /** The Authorization header's value (reduced to its shape; never kept). */
  authorization?: string;
  apiKey: boolean;
  contentType?: string;
  /** The raw body (reduced to its size and digest; never kept). */
  body?: string | Uint8Array;
  status: number;
  retryAfter?: { header: string; delayMs: number };
  answeredBy: AnsweredBy;
  list?: ListParameters & { totalPages?: number };
}

type DeliveryInput = Omit<ObservedDelivery, 'seq' | 'answer'>;

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A scheme, one or more spaces, one token: `auth-scheme 1*SP token68` (RFC 9110, section 11.4). */
const SCHEME_AND_TOKEN = /^\S+ +\S+$/;

/**
 * The shape of an Authorization header value. RFC 9110, section 11.4: `credentials = auth-scheme [ 1*SP ( token68 /
 * #auth-param ) ]`, the scheme case-insensitive; RFC 6750, section 2.1: `"Bearer" 1*SP b64token`. Whitespace around
 * the value is not part of it (RFC 9110, section 5.5).
 */
function authShape(value: string | undefined): AuthSeen {
  if (value === undefined) return { shape: 'absent', jwt: false };
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  const words = trimmed.split(/\s+/).filter(Boolean);
  const jwt = words.some((w) => JWT.test(w));
  const first = words[0];
  if (!first) return { shape: 'bearer-malformed', jwt: false };
  if (first.toLowerCase() === 'bearer') {
    const ok = SCHEME_AND_TOKEN.test(trimmed);
    return { shape: ok ? 'bearer' : 'bearer-malformed', scheme: first, jwt };
  }
  if (words.length === 1) return { shape: 'no-scheme', jwt };
  return { shape: 'other', scheme: first, jwt };
}

/** A bounded list: the newest `max` items, and how many older ones were dropped. */
class Ring<T> {
  readonly items: T[] = [];
  dropped = 0;
  constructor(private readonly max: number) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.max) {
      this.items.shift();
      this.dropped++;
    }
  }
}

/**
 * The trace of one run of client checks for one tenant, fed by the mock with plain values. Bounded: past its limits
 * it drops the oldest records and counts them (`overflow` in the report).
 */
export class ClientTraceRecorder {
  private readonly requests: Ring<ObservedRequest>;
  private readonly deliveries: Ring<ObservedDelivery>;
  private readonly subscriptions: Ring<ObservedSubscription>;
  private readonly perturbations: Ring<Perturbation>;
  private readonly eventReads: Ring<number>;
  /** Perturbation deliveries scheduled and not sent yet, by id (at most a few per delivery, each sent or dropped). */
  private readonly planned = new Map<number, PlannedDelivery>();
  private requestSeq = 0;
  private deliverySeq = 0;
  private plannedSeq = 0;

  constructor(limits: TraceLimits = DEFAULT_TRACE_LIMITS) {
    this.requests = new Ring(limits.requests);
    this.deliveries = new Ring(limits.deliveries);
    this.subscriptions = new Ring(limits.subscriptions);
    this.perturbations = new Ring(limits.perturbations);
    this.eventReads = new Ring(limits.eventReads);
  }

  /** The number the next `/v1` request will get (the perturbation plan counts requests by it). */
  get nextRequestSeq(): number {
    return this.requestSeq + 1;
  }

  request(input: RequestInput): ObservedRequest {
    const { authorization, body, rawQuery, ...rest } = input;
    const observed: ObservedRequest = {
      ...rest,
      seq: ++this.requestSeq,
      rawQuery: redactQueryString(rawQuery),
      auth: authShape(authorization),
      ...(body !== undefined && body.length > 0
        ? { body: { bytes: Buffer.byteLength(body), digest: createHash('sha256').update(body).digest('hex') } }
        : {}),
    };
    this.requests.push(observed);
    if (input.answeredBy === 'injected')
      this.perturbations.push({ kind: '429', at: input.answeredAt, requestSeq: observed.seq });
    if (
      (input.operationId === 'listEvents' || input.operationId === 'listEventVersions') &&
      input.status >= 200 &&
      input.status < 300
    )
      this.eventReads.push(observed.seq);
    return observed;
  }

  /** A delivery sent; returns its number, for its answer. */
  delivery(input: DeliveryInput): number {
    const seq = ++this.deliverySeq;
    this.deliveries.push({ ...input, seq });
    if (input.kind !== 'valid')
      this.perturbations.push({
        kind: input.kind as Exclude<DeliveryKind, 'valid'>,
        at: input.sentAt,
        deliverySeq: seq,
        subscriptionId: input.subscriptionId,
        eventId: input.eventId,
      });
    return seq;
  }

  /**
   * The receiver's answer to a delivery (ignored when the delivery was dropped already), and when the request really
   * left, if the transport knows (the time before it, e.g. loading the transport, is not the receiver's).
   */
  answer(deliverySeq: number, answer: DeliveryAnswer, sentAt?: number): void {
    const d = this.deliveries.items.find((x) => x.seq === deliverySeq);
    if (!d || d.answer) return;
    d.answer = answer;
    if (sentAt !== undefined) d.sentAt = sentAt;
  }

  /** A perturbation delivery scheduled; returns its id, to forget it once sent (`unplan`). */
  plan(input: Omit<PlannedDelivery, 'id'>): number {
    const id = ++this.plannedSeq;
    this.planned.set(id, { ...input, id });
    return id;
  }

  unplan(id: number): void {
    this.planned.delete(id);
  }

  subscription(input: ObservedSubscription): void {
    this.subscriptions.push({ ...input });
  }

  /** A copy of what was recorded, oldest first. */
  trace(): Trace {
    const overflow: Overflow = {
      requests: this.requests.dropped,
      deliveries: this.deliveries.dropped,
      subscriptions: this.subscriptions.dropped,
      perturbations: this.perturbations.dropped,
    };
    return {
      requests: [...this.requests.items],
      deliveries: this.deliveries.items.map((d) => ({ ...d })),
      subscriptions: [...this.subscriptions.items],
      eventReads: [...this.eventReads.items],
      perturbations: [...this.perturbations.items],
      planned: [...this.planned.values()].map((p) => ({ ...p })),
      overflow,
    };
  }
}
