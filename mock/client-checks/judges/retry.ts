import type { Evidence } from '../../../common/report/types.js';
import type { JudgeOptions, ObservedRequest, Trace } from '../trace.js';
import { checkDef } from './defs.js';
import { firstDeliveries, readsEntity, windowEnd } from './notifications.js';
import {
  failed,
  judged,
  notExercised,
  passed,
  plural,
  requestEvidence,
  TIMING_TOLERANCE_MS,
  type Judge,
} from './support.js';

/** The same request: method, path, query and body digest. */
function same(a: ObservedRequest, b: ObservedRequest): boolean {
  return a.method === b.method && a.path === b.path && a.rawQuery === b.rawQuery && a.body?.digest === b.body?.digest;
}

/** A request refused with 429, the delay its answer indicated, and the identical requests that followed it. */
interface Refusal {
  refused: ObservedRequest;
  /** When the delay passed. */
  due: number;
  /** The later identical requests no notification explains (oldest first): sent again, early or not. */
  again: ObservedRequest[];
  /** Its retry: the first of `again`, when it came by the end of the window after the delay. */
  retry?: ObservedRequest;
}

/**
 * Of the later requests identical to a refused one, those a notification explains: after a delivery of an event the
 * receiver had not seen, naming an entity, the client reads that entity (Events, point 5), and the read may well be
 * the very request that was refused. Each such delivery sent after the refused request explains one of them: the
 * first in its read window. A duplicate or a retry of a notification brings no new event, so it explains none (the
 * retry of a read refused while processing the first delivery lands after the duplicate).
 */
function explainedByNotifications(
  trace: Trace,
  refused: ObservedRequest,
  identical: readonly ObservedRequest[],
  options: JudgeOptions,
): Set<number> {
  const out = new Set<number>();
  if (identical.length === 0) return out;
  for (const d of firstDeliveries(trace)) {
    if (d.sentAt <= refused.at || !readsEntity(d, refused)) continue;
    const end = windowEnd(d, options);
    const read = identical.find((r) => !out.has(r.seq) && r.at >= d.sentAt && r.at < end);
    if (read) out.add(read.seq);
  }
  return out;
}

/**
 * The 429s of the API and of the perturbations (never those forced with Prefer), each with the identical requests
 * that followed it and its retry. An identical request sent for a reason the trace does not show (a job that reads
 * the same page again, say) cannot be told from a retry: it counts as one.
 */
export function refusals(trace: Trace, options: JudgeOptions): Refusal[] {
  const requests = judged(trace);
  return requests
    .filter((r) => r.status === 429 && r.retryAfter !== undefined)
    .map((refused) => {
      const due = refused.answeredAt + (refused.retryAfter?.delayMs ?? 0);
      const identical = requests.filter((r) => r.seq > refused.seq && same(r, refused));
      const explained = explainedByNotifications(trace, refused, identical, options);
      const again = identical.filter((r) => !explained.has(r.seq));
      const first = again[0];
      const retry = first !== undefined && first.at <= due + options.readWithinMs ? first : undefined;
      return { refused, due, again, ...(retry ? { retry } : {}) };
    });
}

/** The retries of refused requests: each the same read or write again, not a new one (their request numbers). */
export function retries(trace: Trace, options: JudgeOptions): Set<number> {
  return new Set(refusals(trace, options).flatMap((f) => (f.retry ? [f.retry.seq] : [])));
}

/** Whether a refusal's retry is still awaited: its delay and the window after it have not passed. */
export function retryAwaited(f: Refusal, options: JudgeOptions, now: number): boolean {
  return f.retry === undefined && now <= f.due + options.readWithinMs;
}

/** client.retry-after-wait: a request refused with 429 is not sent again before the indicated delay. */
export const retryAfterWait: Judge = (trace, options) => {
  const all = refusals(trace, options);
  if (all.length === 0) return notExercised(checkDef('client.retry-after-wait'));
  const evidence: Evidence[] = [];
  for (const f of all) {
    const early = f.again.find((r) => r.at + TIMING_TOLERANCE_MS < f.due);
    if (early)
      evidence.push(
        requestEvidence(
          early,
          `sent again ${early.at - f.refused.answeredAt} ms after request ${f.refused.seq} was refused with 429`,
          `not before ${f.refused.retryAfter?.delayMs} ms (${f.refused.retryAfter?.header})`,
          `${early.at - f.refused.answeredAt} ms`,
        ),
      );
  }
  if (evidence.length) return failed(evidence);
  return passed(`${plural(all.length, '429 answer')}, none sent again before its delay`);
};

/** client.retry-after-retries: the refused request is sent again after the delay, within the window after it. */
export const retryAfterRetries: Judge = (trace, options, now) => {
  const all = refusals(trace, options);
  const decided = all.filter((f) => !retryAwaited(f, options, now));
  if (decided.length === 0) return notExercised(checkDef('client.retry-after-retries'), all.length);
  const evidence = decided
    .filter((f) => f.retry === undefined)
    .map((f) => {
      const late = f.again[0];
      return requestEvidence(
        f.refused,
        late
          ? `refused with 429 and not sent again within ${options.readWithinMs} ms after the delay`
          : 'refused with 429 and never sent again',
        `sent again after ${f.refused.retryAfter?.delayMs} ms, within ${options.readWithinMs} ms after that`,
        late ? `sent again ${late.at - f.due} ms after the delay (request ${late.seq})` : 'not sent again',
      );
    });
  if (evidence.length) return failed(evidence);
  return passed(`${plural(decided.length, 'refused request')}, each sent again`);
};
