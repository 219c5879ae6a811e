/**
 * What the mock records of one tenant while client checks run: the tenant's `/v1` requests, the deliveries to the
 * receivers the client subscribed through `/v1` and their answers, and the subscriptions it asked for. Plain values:
 * the recorder knows nothing of the HTTP server. Credentials are never kept: of the `Authorization` header only its
 * shape, of `X-Api-Key` only its presence, of a body only its size and digest.
 */

/**
 * The shape of an `Authorization` header. `bearer`: `Bearer <token>` (scheme in any case, one or more spaces, one
 * token: RFC 9110, section 11.4; RFC 6750, section 2.1); `bearer-malformed`: the Bearer scheme without a token, with
 * another separator than spaces, or with more words; `no-scheme`: a bare token; `other`: another scheme (`Basic`,
 * `Token`...).
 */
export type AuthShape = 'absent' | 'bearer' | 'bearer-malformed' | 'no-scheme' | 'other';

export interface AuthSeen {
  shape: AuthShape;
  /** The scheme word as sent (`bearer`, `Token`), when there is one. */
  scheme?: string;
  /** Whether the credentials look like a JWT (three base64url segments). */
  jwt: boolean;
}

/** Who answered a request: the API, a perturbation of the checks, or a `Prefer` header (never judged). */
export type AnsweredBy = 'api' | 'injected' | 'prefer';

/** The list parameters of a list or search request, as sent (decoded; from the query or the search body). */
export interface ListParameters {
  pageNumber?: string;
  pageSize?: string;
  filterBy?: string;
  sortBy?: string;
}

/** One `/v1` request of the tenant and its answer. */
export interface ObservedRequest {
  /** 1 for the first `/v1` request since the checks started. */
  seq: number;
  /** When it arrived and when it was answered (epoch ms). */
  at: number;
  answeredAt: number;
  method: string;
  /** The path as received, without the query. */
  path: string;
  /** The query string as received (raw, without `?`), credential parameters redacted. */
  rawQuery: string;
  /** The operation of the contract it addressed (undefined: none). */
  operationId?: string;
  auth: AuthSeen;
  apiKey: boolean;
  /** The Content-Type header as sent. */
  contentType?: string;
  /** Its body: size in bytes and a digest (undefined: no body). */
  body?: { bytes: number; digest: string };
  status: number;
  /** A 429's delay as the answer indicated it, and the header that carried it. */
  retryAfter?: { header: string; delayMs: number };
  answeredBy: AnsweredBy;
  /** For a list or search operation: its parameters, and the `totalPages` its 200 answer told. */
  list?: ListParameters & { totalPages?: number };
}

/** What a delivery is: the faithful one, or a perturbation of the profile `certify`. */
export type DeliveryKind = 'valid' | 'duplicate' | 'wrong-key' | 'hex-63' | 'non-hex' | 'raw-sensitive';

/** Deliveries a receiver must not process (a signature that is wrong or not 64 hexadecimal characters). */
export const FORGED_KINDS: readonly DeliveryKind[] = ['wrong-key', 'hex-63', 'non-hex'];

/** The receiver's answer to a delivery: a status, or none (a time-out or a connection error). */
export type DeliveryAnswer = { status: number; at: number } | { error: 'timeout' | 'connection'; at: number };

/** One delivery to a receiver the client subscribed through `/v1`. */
export interface ObservedDelivery {
  /** 1 for the first delivery since the checks started. */
  seq: number;
  subscriptionId: string;
  eventId: string;
  eventName: string;
  eventVersion: number;
  /** The entity the event names: the field of its data and its value (e.g. `skuReference`). */
  entity?: { field: string; value: string };
  kind: DeliveryKind;
  sentAt: number;
  answer?: DeliveryAnswer;
}

/** A subscription the client asked for through `/v1` (made or refused). */
export interface ObservedSubscription {
  at: number;
  /** The `seq` of the request that asked for it (./recorder.ts): the order the mock answered it among the tenant's. */
  requestSeq: number;
  eventName: string;
  eventVersion: number;
  status: number;
  /** Whether the environment offers this name and version. */
  offered: boolean;
  id?: string;
}

/** A perturbation applied: an injected 429, or a delivery that is not the faithful one. */
export interface Perturbation {
  kind: '429' | Exclude<DeliveryKind, 'valid'>;
  at: number;
  /** The request it answered (an injected 429). */
  requestSeq?: number;
  /** The delivery it was (the others). */
  deliverySeq?: number;
  subscriptionId?: string;
  eventId?: string;
}

/** A perturbation delivery the plan scheduled and the mock has not sent yet (a duplicate waits 1 s). */
export interface PlannedDelivery {
  /** 1 for the first planned since the checks started. */
  id: number;
  kind: Exclude<DeliveryKind, 'valid'>;
  eventName: string;
  eventId: string;
  subscriptionId: string;
  /** When it is due (epoch ms). */
  dueAt: number;
}

/** How many records a run dropped, oldest first, beyond its bounds. */
export interface Overflow {
  requests: number;
  deliveries: number;
  subscriptions: number;
  perturbations: number;
}

/** The trace of a run, as the judges read it (oldest first). */
export interface Trace {
  requests: readonly ObservedRequest[];
  deliveries: readonly ObservedDelivery[];
  subscriptions: readonly ObservedSubscription[];
  /**
   * The `seq` of each read of the events or versions endpoints answered 2xx: the order of the answers, not their
   * millisecond times, which are rounded and can put a subscription sent right after a read before it.
   */
  eventReads: readonly number[];
  perturbations: readonly Perturbation[];
  /** Perturbation deliveries scheduled but not sent yet (absent: none). */
  planned?: readonly PlannedDelivery[];
  overflow: Overflow;
}

/** The options of a run that the judges read. */
export interface JudgeOptions {
  /** The delay an injected 429 indicates (seconds; default 1). */
  retryAfterSeconds: number;
  /** The bound of receiver-fast (ms; default 2000, inferred). */
  answerWithinMs: number;
  /** How long after a delivery (or a 429's delay) the mock waits for the client's reads or retry (ms; default 5000). */
  readWithinMs: number;
}

export const DEFAULT_JUDGE_OPTIONS: JudgeOptions = { retryAfterSeconds: 1, answerWithinMs: 2000, readWithinMs: 5000 };
