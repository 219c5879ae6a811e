import type { ObservedDelivery, ObservedRequest, ObservedSubscription, Trace } from '../trace.js';
import { DEFAULT_JUDGE_OPTIONS, type JudgeOptions } from '../trace.js';

/** Handcrafted traces for the judges: a request or delivery with defaults, and a trace of them. */

let seq = 0;

export function req(over: Partial<ObservedRequest> = {}): ObservedRequest {
  seq++;
  const at = over.at ?? seq * 10;
  return {
    seq,
    at,
    answeredAt: at + 1,
    method: 'GET',
    path: '/v1/items/skus',
    rawQuery: '',
    operationId: 'listSkus',
    auth: { shape: 'bearer', scheme: 'Bearer', jwt: true },
    apiKey: true,
    status: 200,
    answeredBy: 'api',
    ...over,
  };
}

/** A list request of listSkus and its answer (totalPages told). */
export function page(n: number, totalPages: number, over: Partial<ObservedRequest> = {}): ObservedRequest {
  return req({
    rawQuery: `pageNumber=${n}&pageSize=10`,
    list: { pageNumber: String(n), pageSize: '10', totalPages },
    ...over,
  });
}

let dseq = 0;

export function delivery(over: Partial<ObservedDelivery> = {}): ObservedDelivery {
  dseq++;
  const sentAt = over.sentAt ?? 1000;
  return {
    seq: dseq,
    subscriptionId: 'sub-1',
    eventId: `evt-${dseq}`,
    eventName: 'Items.Sku.Created',
    eventVersion: 1,
    entity: { field: 'skuReference', value: 'SKU-1' },
    kind: 'valid',
    sentAt,
    answer: { status: 200, at: sentAt + 20 },
    ...over,
  };
}

/** A read of a SKU by its reference (listSkus filtered on it). */
export function readSku(reference: string, at: number, over: Partial<ObservedRequest> = {}): ObservedRequest {
  return req({
    at,
    rawQuery: `filterBy=reference%5BEquals%5D${reference}`,
    list: { filterBy: `reference[Equals]${reference}` },
    ...over,
  });
}

/** A read of a SKU answered with an injected 429 that indicated a delay of 1 s. */
export function refusedSku(reference: string, at: number): ObservedRequest {
  return readSku(reference, at, {
    answeredAt: at + 1,
    status: 429,
    answeredBy: 'injected',
    retryAfter: { header: 'Retry-After', delayMs: 1000 },
  });
}

export function subscription(over: Partial<ObservedSubscription> = {}): ObservedSubscription {
  return {
    at: 500,
    requestSeq: 5,
    eventName: 'Items.Sku.Created',
    eventVersion: 1,
    status: 201,
    offered: true,
    id: 'sub-1',
    ...over,
  };
}

export function trace(parts: Partial<Trace> = {}): Trace {
  return {
    requests: [],
    deliveries: [],
    subscriptions: [],
    eventReads: [],
    perturbations: [],
    overflow: { requests: 0, deliveries: 0, subscriptions: 0, perturbations: 0 },
    ...parts,
  };
}

export const OPTIONS: JudgeOptions = DEFAULT_JUDGE_OPTIONS;
/** Long after everything of a handcrafted trace: every window has passed. */
export const LATER = 1_000_000;
