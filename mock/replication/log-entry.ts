import type { Change } from '../store/change.js';
import type { EntityRecord } from '../store/records.js';

/** One write as a tenant's log holds it: the replica that made it, and the entity record (as a state file keeps it). */
interface LogEntry {
  readonly r: string;
  readonly e: EntityRecord['entity'];
  readonly i: string;
  readonly a: unknown;
}

/** A change as the JSON of its log entry. */
export function encodeChange(change: Change, replica: string): string {
  const entry: LogEntry = { r: replica, e: change.entity, i: change.id, a: change.after };
  return JSON.stringify(entry);
}

/** The API key value a change stores (its key -> org entry is kept in Redis), '' for any other change. */
export function apiKeyValueOf(change: Change): string {
  return change.entity === 'apiKey' && change.after ? change.after.apiKey.key : '';
}

/** One entry read back: which replica wrote it, and the record to replay. */
export interface ReadEntry {
  readonly replica: string;
  readonly record: EntityRecord;
}

/** Entries as XRANGE answers them (`[[id, ['c', json]], ...]`), in order, with the id of the last. */
export function decodeEntries(raw: unknown): { entries: ReadEntry[]; last: string | undefined } {
  const entries: ReadEntry[] = [];
  let last: string | undefined;
  if (!Array.isArray(raw)) return { entries, last };
  for (const item of raw) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    last = item[0];
    const fields = item[1] as unknown[];
    const json = fields[fields.indexOf('c') + 1];
    if (typeof json !== 'string') continue;
    const entry = JSON.parse(json) as LogEntry;
    // The kind and value were written by a replica of this same version (the config check makes sure), so the pair holds.
    entries.push({ replica: entry.r, record: { entity: entry.e, id: entry.i, after: entry.a } as EntityRecord });
  }
  return { entries, last };
}
