import { firstDeliveries, readsOf, windowEnd } from './judges/notifications.js';
import { refusals, retryAwaited } from './judges/retry.js';
import { FORGED_KINDS, type JudgeOptions, type Trace } from './trace.js';
import { EVENT_READS } from './reads.js';

/** What the checks still wait for: a perturbation (or a delivery, or a 429) not answered yet, or within its window. */
interface PendingItem {
  kind: '429' | 'delivery' | 'planned';
  /** The request (429), delivery or planned delivery number. */
  seq: number;
  what: string;
  /** Until when it is awaited at most (epoch ms; a delivery not answered yet: undefined). */
  until?: number;
}

/**
 * The pending items of a trace at `now`: perturbation deliveries planned and not sent yet; deliveries not answered;
 * the forged and duplicate deliveries, and the first delivery of each event an operation reads, until their window
 * after the answer passed (or, for those a read decides, until it came); the 429s whose request was not sent again
 * until their delay and window passed.
 */
export function pendingOf(trace: Trace, options: JudgeOptions, now: number): PendingItem[] {
  const out: PendingItem[] = [];
  for (const p of trace.planned ?? [])
    out.push({
      kind: 'planned',
      seq: p.id,
      what: `${p.kind} delivery of ${p.eventName}, event ${p.eventId}, to subscription ${p.subscriptionId}: not sent yet`,
      until: p.dueAt,
    });
  const first = new Set(firstDeliveries(trace).map((d) => d.seq));
  for (const d of trace.deliveries) {
    const what = `${d.kind} delivery of ${d.eventName}, event ${d.eventId}`;
    if (!d.answer) {
      out.push({ kind: 'delivery', seq: d.seq, what: `${what}: not answered yet` });
      continue;
    }
    if (FORGED_KINDS.includes(d.kind) || d.kind === 'duplicate') {
      const until = windowEnd(d, options);
      if (now <= until) out.push({ kind: 'delivery', seq: d.seq, what: `${what}: within its window`, until });
    } else if (first.has(d.seq) && d.entity !== undefined && EVENT_READS.has(d.eventName)) {
      // Decided by the client's read of the entity, or by the end of the window without one.
      const until = d.sentAt + options.readWithinMs;
      if (now <= until && readsOf(trace, d, d.sentAt, until).length === 0)
        out.push({ kind: 'delivery', seq: d.seq, what: `${what}: its entity not read yet`, until });
    }
  }
  for (const f of refusals(trace, options))
    if (retryAwaited(f, options, now))
      out.push({
        kind: '429',
        seq: f.refused.seq,
        what: `429 of request ${f.refused.seq} (${f.refused.method} ${f.refused.path}): not sent again yet`,
        until: f.due + options.readWithinMs,
      });
  return out;
}
