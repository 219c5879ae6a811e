import { REDACTED } from '../../../common/report/redaction.js';
import type { Evidence } from '../../../common/report/types.js';
import type { ClientCheckDef } from '../checks.js';
import type { JudgeOptions, ObservedDelivery, ObservedRequest, Trace } from '../trace.js';

/** What a judge finds: pass (what it covered), fail (with evidence), or skip (what would exercise it). */
export interface Judgement {
  outcome: 'pass' | 'fail' | 'skip';
  reason?: string;
  evidence: Evidence[];
  failureCount: number;
}

/** A judge: a pure function of the trace, the run's options and the time. */
export type Judge = (trace: Trace, options: JudgeOptions, now: number) => Judgement;

/** Evidence kept per check (all failures are counted). */
const MAX_EVIDENCE = 5;

/** Allowance for the clocks' resolution when comparing a retry with its delay (inferred). */
export const TIMING_TOLERANCE_MS = 25;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export { plural };

export function passed(reason: string): Judgement {
  return { outcome: 'pass', reason, evidence: [], failureCount: 0 };
}

export function failed(evidence: Evidence[]): Judgement {
  return { outcome: 'fail', evidence: evidence.slice(0, MAX_EVIDENCE), failureCount: evidence.length };
}

/** A skip: nothing in the traffic exercised the check (and what would), or only what is still pending. */
export function notExercised(def: ClientCheckDef, pending = 0): Judgement {
  const reason =
    pending > 0
      ? `not judged yet: ${plural(pending, 'observation')} pending (waiting for an answer or within its window)`
      : `not exercised by the client's traffic: ${def.exercisedBy} would exercise it`;
  return { outcome: 'skip', reason, evidence: [], failureCount: 0 };
}

/** The requests a check judges: every `/v1` request but those answered by a `Prefer` header. */
export function judged(trace: Trace): ObservedRequest[] {
  return trace.requests.filter((r) => r.answeredBy !== 'prefer');
}

/** `/v1/items/skus?pageNumber=2` as received (credential parameters already redacted). */
export function target(r: ObservedRequest): string {
  return r.rawQuery ? `${r.path}?${r.rawQuery}` : r.path;
}

/** The headers of a request as evidence shows them: their shape, never a credential. */
function shownHeaders(r: ObservedRequest): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.auth.shape !== 'absent') out.authorization = r.auth.scheme ? `${r.auth.scheme} ${REDACTED}` : REDACTED;
  if (r.apiKey) out['x-api-key'] = REDACTED;
  if (r.contentType !== undefined) out['content-type'] = r.contentType;
  return out;
}

export function requestEvidence(r: ObservedRequest, message: string, expected?: string, actual?: string): Evidence {
  const answerHeaders: Record<string, string> = r.retryAfter
    ? { [r.retryAfter.header.toLowerCase()]: `${r.retryAfter.delayMs} ms` }
    : {};
  return {
    message: `request ${r.seq} (${r.method} ${r.path}): ${message}`,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    request: {
      method: r.method,
      url: target(r),
      headers: shownHeaders(r),
      ...(r.body ? { body: `<${r.body.bytes} bytes, sha256 ${r.body.digest.slice(0, 16)}...>` } : {}),
    },
    response: { status: r.status, headers: answerHeaders },
  };
}

/** How a delivery was answered, in words. */
function answerText(d: ObservedDelivery): string {
  if (!d.answer) return 'not answered yet';
  if ('error' in d.answer) return `no answer (${d.answer.error}) after ${d.answer.at - d.sentAt} ms`;
  return `${d.answer.status} after ${d.answer.at - d.sentAt} ms`;
}

export function deliveryEvidence(d: ObservedDelivery, message: string, expected?: string, actual?: string): Evidence {
  const entity = d.entity ? `, naming ${d.entity.field} ${d.entity.value}` : '';
  return {
    message: `delivery ${d.seq} (${d.kind}) of ${d.eventName} v${d.eventVersion}, event ${d.eventId}${entity}, to subscription ${d.subscriptionId}: ${message}`,
    ...(expected !== undefined ? { expected } : {}),
    actual: actual ?? answerText(d),
  };
}

export function is2xx(d: ObservedDelivery): boolean {
  return d.answer !== undefined && 'status' in d.answer && d.answer.status >= 200 && d.answer.status < 300;
}

/** Decodes a query string component; the text as it was when it is not valid percent-encoding. */
export function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Whether a request names a value: in its path, its query, or the filter of its search body. */
export function names(r: ObservedRequest, value: string): boolean {
  return (
    decode(r.path).includes(value) || decode(r.rawQuery).includes(value) || (r.list?.filterBy ?? '').includes(value)
  );
}
