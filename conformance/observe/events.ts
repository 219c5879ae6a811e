import type { RunContext } from '../context.js';
import { readCollection } from './read-all.js';

/** An event of the environment: its name and the major version of its contract. */
export interface EventRef {
  eventName: string;
  eventVersion: number;
}

/** The events a target offers, or why none could be read (for a skip that names what is missing). */
interface EventsRead {
  events: EventRef[];
  /** Set when `events` is empty: what each events endpoint answered. */
  reason?: string;
}

const EVENT_VERSIONS = '/v1/notifications/events/versions';
const EVENTS = '/v1/notifications/events';

/**
 * The records of a collection that carry an `eventName` and an integer `eventVersion`: the only fields the
 * reference names for an event descriptor (Resources / Event descriptor: "Other fields of the descriptor: not shown").
 */
function refsOf(items: Record<string, unknown>[]): EventRef[] {
  const seen = new Set<string>();
  const out: EventRef[] = [];
  for (const item of items) {
    const { eventName, eventVersion } = item;
    if (typeof eventName !== 'string' || !Number.isInteger(eventVersion)) continue;
    const key = `${eventName}@${String(eventVersion)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ eventName, eventVersion: eventVersion as number });
  }
  return out;
}

/**
 * The event names and versions of the environment (memoised per run). Events, point 2: they "are read from
 * `GET /v1/notifications/events/versions`"; its response shape is not shown (Endpoints / Event discovery), so it is
 * read as a bare array or as the page envelope. `GET /v1/notifications/events` exposes the same two fields per event
 * (Resources / Event descriptor) and is read when the first lists none.
 */
export function readEvents(run: RunContext): Promise<EventsRead> {
  return run.memo('events:read', async () => {
    const reasons: string[] = [];
    for (const path of [EVENT_VERSIONS, EVENTS]) {
      const read = await readCollection(run.client, 'shared', { path });
      if (typeof read === 'string') {
        reasons.push(read);
        continue;
      }
      const events = refsOf(read.items);
      if (events.length > 0) return { events };
      reasons.push(
        `GET ${path} listed ${read.items.length} record(s), none with an eventName and an integer eventVersion`,
      );
    }
    return { events: [], reason: reasons.join('; ') };
  });
}

/**
 * Every event in the order a run subscribes to them, at most `max`: the newest version of each name first, then the
 * older versions (a subscription names one version: Versioning, point 2; which one an operation emits is not shown).
 */
export function subscriptionOrder(events: readonly EventRef[], max: number): EventRef[] {
  const byName = new Map<string, EventRef[]>();
  for (const e of events) byName.set(e.eventName, [...(byName.get(e.eventName) ?? []), e]);
  const newest: EventRef[] = [];
  const older: EventRef[] = [];
  for (const versions of byName.values()) {
    const [first, ...rest] = [...versions].sort((a, b) => b.eventVersion - a.eventVersion);
    if (first) newest.push(first);
    older.push(...rest);
  }
  return [...newest, ...older].slice(0, max);
}
