import type { Evidence } from '../../../common/report/types.js';
import { EVENT_READS } from '../reads.js';
import type { ObservedSubscription } from '../trace.js';
import { checkDef } from './defs.js';
import { firstDeliveries, readsOf } from './notifications.js';
import { deliveryEvidence, failed, is2xx, notExercised, passed, plural, type Judge } from './support.js';

/**
 * client.reads-after-notification: after an accepted delivery the client reads the named entity within the window.
 * Only the first delivery of an event is judged: a receiver drops a later one of the same event id (the mock's
 * retry of a delivery it refused, say) and has nothing to read after it.
 */
export const readsAfterNotification: Judge = (trace, options, now) => {
  const readable = firstDeliveries(trace).filter((d) => d.entity !== undefined && EVENT_READS.has(d.eventName));
  const evidence: Evidence[] = [];
  let decided = 0;
  for (const d of readable) {
    const end = d.sentAt + options.readWithinMs;
    const read = readsOf(trace, d, d.sentAt, end).length > 0;
    if (read) decided++;
    else if (d.answer !== undefined && now > end) {
      decided++;
      // A delivery the receiver refused is client.receiver-accepts' failure, not a missing read.
      if (is2xx(d))
        evidence.push(
          deliveryEvidence(
            d,
            `the entity was not read with ${EVENT_READS.get(d.eventName)?.operationId} within ${options.readWithinMs} ms`,
            'a read of the entity it names',
            'no read',
          ),
        );
    }
  }
  if (decided === 0) return notExercised(checkDef('client.reads-after-notification'), readable.length);
  if (evidence.length) return failed(evidence);
  return passed(`${plural(decided, 'delivery', 'deliveries')} of an event an operation reads, each followed by a read`);
};

function subscriptionEvidence(s: ObservedSubscription, message: string, expected: string): Evidence {
  return {
    message: `subscription to ${s.eventName} v${s.eventVersion} (answered ${s.status}): ${message}`,
    expected,
    actual: `${s.eventName} v${s.eventVersion}`,
  };
}

/**
 * client.event-names-from-versions: every subscription is created after the client read the events endpoints, i.e.
 * the mock answered a read of them before it answered the subscription (the order of the answers: ./trace.ts).
 */
export const eventNamesFromVersions: Judge = (trace) => {
  const subs = trace.subscriptions;
  if (subs.length === 0) return notExercised(checkDef('client.event-names-from-versions'));
  const first = trace.eventReads.length ? Math.min(...trace.eventReads) : Number.POSITIVE_INFINITY;
  const blind = subs.filter((s) => s.requestSeq < first);
  if (blind.length)
    return failed(
      blind.map((s) =>
        subscriptionEvidence(
          s,
          'created before the client read GET /v1/notifications/events or /events/versions',
          'a read of the events or versions endpoint first',
        ),
      ),
    );
  return passed(`${plural(subs.length, 'subscription')}, each after a read of the events endpoints`);
};

/** client.subscribes-offered-versions: subscriptions name an event name and version the environment offers. */
export const subscribesOfferedVersions: Judge = (trace) => {
  const subs = trace.subscriptions;
  if (subs.length === 0) return notExercised(checkDef('client.subscribes-offered-versions'));
  const unknown = subs.filter((s) => !s.offered);
  if (unknown.length)
    return failed(
      unknown.map((s) =>
        subscriptionEvidence(
          s,
          'names an event or a version the environment does not offer',
          'an offered name and version',
        ),
      ),
    );
  return passed(`${plural(subs.length, 'subscription')}, each naming an offered event and version`);
};
