import type { Evidence } from '../../../common/report/types.js';
import { FORGED_KINDS, type ObservedDelivery, type Trace } from '../trace.js';
import { checkDef } from './defs.js';
import { readsOf, windowEnd } from './notifications.js';
import { retries } from './retry.js';
import { deliveryEvidence, failed, is2xx, notExercised, passed, plural, type Judge } from './support.js';

const ofKind = (trace: Trace, kinds: readonly string[]) => trace.deliveries.filter((d) => kinds.includes(d.kind));
const answered = (d: ObservedDelivery) => d.answer !== undefined;

/** Deliveries of some kinds answered 2xx: pass, else the evidence (the unanswered ones are pending). */
function answered2xx(trace: Trace, id: string, kinds: readonly string[], what: string) {
  const all = ofKind(trace, kinds);
  const done = all.filter(answered);
  if (done.length === 0) return notExercised(checkDef(id), all.length);
  const wrong = done.filter((d) => !is2xx(d));
  if (wrong.length) return failed(wrong.map((d) => deliveryEvidence(d, `${what} not accepted`, 'a 2xx answer')));
  return passed(`${plural(done.length, what)}, each answered 2xx`);
}

/** client.receiver-accepts: validly signed deliveries are answered 2xx. */
export const receiverAccepts: Judge = (trace) =>
  answered2xx(trace, 'client.receiver-accepts', ['valid'], 'valid delivery');

/** client.receiver-raw-body: a valid delivery whose bytes differ from a re-serialisation of its JSON is accepted. */
export const receiverRawBody: Judge = (trace) =>
  answered2xx(trace, 'client.receiver-raw-body', ['raw-sensitive'], 're-serialisation-sensitive delivery');

/** client.receiver-rejects-forged: the entity named only by forged deliveries is not read afterwards. */
export const receiverRejectsForged: Judge = (trace, options, now) => {
  // Only entities no faithful delivery names: a read of those is the forged delivery's doing.
  const named = new Set(trace.deliveries.filter((d) => !FORGED_KINDS.includes(d.kind)).map((d) => d.entity?.value));
  const forged = ofKind(trace, FORGED_KINDS).filter((d) => d.entity !== undefined && !named.has(d.entity.value));
  const decided = forged.filter((d) => answered(d) && now > windowEnd(d, options));
  const evidence: Evidence[] = [];
  for (const d of forged) {
    const read = readsOf(trace, d, d.sentAt, Number.POSITIVE_INFINITY)[0];
    if (read)
      evidence.push(
        deliveryEvidence(
          d,
          `processed: request ${read.seq} (${read.method} ${read.path}) read the entity only this forged delivery named`,
          'no read of the entity it names',
          `read ${read.at - d.sentAt} ms after the delivery`,
        ),
      );
  }
  if (evidence.length) return failed(evidence);
  if (decided.length === 0) return notExercised(checkDef('client.receiver-rejects-forged'), forged.length);
  return passed(`${plural(decided.length, 'forged delivery', 'forged deliveries')}, none processed`);
};

/** client.receiver-refuses-forged: forged deliveries are answered with a non-2xx status. */
export const receiverRefusesForged: Judge = (trace) => {
  const forged = ofKind(trace, FORGED_KINDS);
  const done = forged.filter(answered);
  if (done.length === 0) return notExercised(checkDef('client.receiver-refuses-forged'), forged.length);
  const wrong = done.filter((d) => is2xx(d) || (d.answer !== undefined && 'error' in d.answer));
  if (wrong.length)
    return failed(wrong.map((d) => deliveryEvidence(d, 'a forged delivery was not refused', 'a non-2xx answer')));
  return passed(`${plural(done.length, 'forged delivery', 'forged deliveries')}, each refused`);
};

/** client.receiver-fast: deliveries are answered within answerWithinMs. */
export const receiverFast: Judge = (trace, options, now) => {
  const all = trace.deliveries;
  const late = (d: ObservedDelivery) =>
    d.answer
      ? 'error' in d.answer || d.answer.at - d.sentAt > options.answerWithinMs
      : now - d.sentAt > options.answerWithinMs;
  const decided = all.filter((d) => d.answer !== undefined || late(d));
  if (decided.length === 0) return notExercised(checkDef('client.receiver-fast'), all.length);
  const slow = decided.filter(late);
  if (slow.length)
    return failed(
      slow.map((d) =>
        deliveryEvidence(d, 'answered late or not at all', `an answer within ${options.answerWithinMs} ms`),
      ),
    );
  return passed(
    `${plural(decided.length, 'delivery', 'deliveries')}, each answered within ${options.answerWithinMs} ms`,
  );
};

/** The first delivery of an event a duplicate repeats. */
function firstOf(trace: Trace, dup: ObservedDelivery): ObservedDelivery | undefined {
  return trace.deliveries.find((d) => d.kind === 'valid' && d.eventId === dup.eventId && d.seq < dup.seq);
}

/**
 * client.receiver-dedup: a duplicate (same event id) is answered 2xx and not processed twice: when reads of the
 * entity followed the first delivery before the duplicate came, as many do not follow the duplicate (until the
 * window ends or another event names the entity). The retry of a read refused with 429 is that read again, not a
 * new one: it is not counted (a read refused while processing the first delivery is sent again after the delay,
 * which may well be after the duplicate came).
 */
export const receiverDedup: Judge = (trace, options, now) => {
  const dups = ofKind(trace, ['duplicate']);
  const decided = dups.filter((d) => answered(d) && now > windowEnd(d, options));
  if (decided.length === 0) return notExercised(checkDef('client.receiver-dedup'), dups.length);
  const again = retries(trace, options);
  const reads = (d: ObservedDelivery, from: number, to: number) =>
    readsOf(trace, d, from, to).filter((r) => !again.has(r.seq)).length;
  const evidence: Evidence[] = [];
  for (const dup of decided) {
    if (!is2xx(dup)) {
      evidence.push(deliveryEvidence(dup, 'a duplicate was not accepted', 'a 2xx answer'));
      continue;
    }
    const first = firstOf(trace, dup);
    if (!first) continue;
    const next = trace.deliveries.find(
      (d) =>
        d.seq > dup.seq &&
        (d.kind === 'valid' || d.kind === 'raw-sensitive') &&
        d.eventId !== dup.eventId &&
        d.entity?.value !== undefined &&
        d.entity.value === dup.entity?.value,
    );
    const end = Math.min(windowEnd(dup, options), next?.sentAt ?? Number.POSITIVE_INFINITY);
    const before = reads(first, first.sentAt, dup.sentAt);
    const after = reads(dup, dup.sentAt, end);
    if (before > 0 && after >= before)
      evidence.push(
        deliveryEvidence(
          dup,
          'processed twice: the reads that followed the first delivery were repeated',
          `no read repeated (${before} after the first delivery)`,
          `${after} after the duplicate`,
        ),
      );
  }
  if (evidence.length) return failed(evidence);
  return passed(`${plural(decided.length, 'duplicate')}, each accepted and not processed twice`);
};
