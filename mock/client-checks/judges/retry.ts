import type { Evidence } from '../../../common/report/types.js';
import type { JudgeOptions, ObservedRequest, Trace } from '../trace.js';
import { checkDef } from './defs.js';
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

/** A request refused with 429 and the delay its answer indicated. */
interface Refusal {
  refused: ObservedRequest;
  /** When the delay passed. */
  due: number;
  /** Every later identical request. */
  again: ObservedRequest[];
}

/** The 429s of the API and of the perturbations (never those forced with Prefer), each with its later copies. */
export function refusals(trace: Trace): Refusal[] {
  const requests = judged(trace);
  return requests
    .filter((r) => r.status === 429 && r.retryAfter !== undefined)
    .map((refused) => ({
      refused,
      due: refused.answeredAt + (refused.retryAfter?.delayMs ?? 0),
      again: requests.filter((r) => r.seq > refused.seq && same(r, refused)),
    }));
}

/** The next identical request a refusal got, up to the next refusal of it (a retry refused again starts anew). */
const firstAgain = (f: Refusal) => f.again[0];

/** Whether a refusal's retry is still awaited: its delay and the window after it have not passed. */
export function retryAwaited(f: Refusal, options: JudgeOptions, now: number): boolean {
  return firstAgain(f) === undefined && now <= f.due + options.readWithinMs;
}

/** client.retry-after-wait: a request refused with 429 is not sent again before the indicated delay. */
export const retryAfterWait: Judge = (trace) => {
  const all = refusals(trace);
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

/** client.retry-after-retries: the refused request is sent again after the delay. */
export const retryAfterRetries: Judge = (trace, options, now) => {
  const all = refusals(trace);
  const decided = all.filter((f) => !retryAwaited(f, options, now));
  if (decided.length === 0) return notExercised(checkDef('client.retry-after-retries'), all.length);
  const evidence = decided
    .filter((f) => firstAgain(f) === undefined)
    .map((f) =>
      requestEvidence(
        f.refused,
        'refused with 429 and never sent again',
        `sent again after ${f.refused.retryAfter?.delayMs} ms, within ${options.readWithinMs} ms after that`,
        'not sent again',
      ),
    );
  if (evidence.length) return failed(evidence);
  return passed(`${plural(decided.length, 'refused request')}, each sent again`);
};
