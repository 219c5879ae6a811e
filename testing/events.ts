import { EVENT_CATALOG, findEvent, findEventVersion, latestVersion } from '../spec/events/catalog.js';
import { shown } from './check.js';

/** An event a listener subscribes to: a catalog name (its latest version), or a name with a version. */
export type EventChoice = string | { readonly eventName: string; readonly eventVersion: number };

/** One subscription to make. */
interface EventVersionRef {
  readonly eventName: string;
  readonly eventVersion: number;
}

/**
 * The subscriptions a listener makes: one per named event, at its latest version unless a version is named; every
 * catalog event when none is named. One version per name (inferred): an event emitted without a version fans out
 * to every subscribed version of its name (Events, point 4), so subscribing to all versions would deliver each
 * event twice where the catalog has two; a client subscribes to the version it reads, as a real one would.
 */
export function chosenEvents(events: readonly EventChoice[] | undefined): EventVersionRef[] {
  if (events !== undefined && !Array.isArray(events))
    throw new TypeError(`webhooks.listen: events must be an array of event names, got ${shown(events)}`);
  const chosen = (events ?? EVENT_CATALOG.map((e) => e.eventName)).map((choice, i) => refOf(choice, i));
  const seen = new Set<string>();
  return chosen.filter((ref) => {
    const key = `${ref.eventName}@${ref.eventVersion}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function refOf(choice: EventChoice, i: number): EventVersionRef {
  const name = typeof choice === 'string' ? choice : choice?.eventName;
  const event = typeof name === 'string' ? findEvent(name) : undefined;
  if (!event)
    throw new RangeError(
      `webhooks.listen: events[${i}] ${shown(choice)} is not an event of the catalog (GET /v1/notifications/events)`,
    );
  if (typeof choice === 'string') return { eventName: event.eventName, eventVersion: latestVersion(event).version };
  if (!findEventVersion(event.eventName, choice.eventVersion))
    throw new RangeError(
      `webhooks.listen: events[${i}] ${event.eventName} has no version ${shown(choice.eventVersion)}; it has ${event.versions.map((v) => v.version).join(', ')}`,
    );
  return { eventName: event.eventName, eventVersion: choice.eventVersion };
}
