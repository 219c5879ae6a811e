import { EVENT_READS } from '../reads.js';
import type { JudgeOptions, ObservedDelivery, ObservedRequest, Trace } from '../trace.js';
import { judged, names } from './support.js';

/** The end of the window in which a delivery's reads are counted (its answer, or its sending, plus the window). */
export function windowEnd(d: ObservedDelivery, options: JudgeOptions): number {
  return (d.answer?.at ?? d.sentAt) + options.readWithinMs;
}

/** Whether a request reads the entity a delivery names (by the operation that reads it, else any request naming it). */
export function readsEntity(d: ObservedDelivery, r: ObservedRequest): boolean {
  const entity = d.entity;
  if (!entity || r.method === 'DELETE') return false;
  const op = EVENT_READS.get(d.eventName)?.operationId;
  return (op === undefined || r.operationId === op) && names(r, entity.value);
}

/** Reads of the entity a delivery names in a span. */
export function readsOf(trace: Trace, d: ObservedDelivery, from: number, to: number): ObservedRequest[] {
  return judged(trace).filter((r) => r.at >= from && r.at < to && readsEntity(d, r));
}

/**
 * The deliveries that bring the receiver an event it has not seen: the valid and the re-serialisation-sensitive ones,
 * each the first delivery of its event id. A later delivery of the same id (the duplicate of the profile certify, the
 * mock's automatic retry of a notification the receiver refused or did not answer in time, a manual retry) repeats an
 * event the receiver stored already; it drops it (Events, point 4), so nothing is read after it.
 */
export function firstDeliveries(trace: Trace): ObservedDelivery[] {
  const seen = new Set<string>();
  const out: ObservedDelivery[] = [];
  for (const d of trace.deliveries) {
    if (seen.has(d.eventId)) continue;
    seen.add(d.eventId);
    if (d.kind === 'valid' || d.kind === 'raw-sensitive') out.push(d);
  }
  return out;
}
