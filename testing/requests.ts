import type { JournalEntry } from '../mock/store/journal.js';
import { shown } from './check.js';

/** One request of a tenant's journal: what the client sent and what the mock answered (mock/store/journal.ts). */
export type RecordedRequest = JournalEntry;

/** Which journal entries `t.requests(filter)` returns; every field given must match. */
export interface RequestFilter {
  readonly operationId?: string;
  /** Compared without regard to case (`get` matches `GET`). */
  readonly method?: string;
  /** The path without the query: equal to a string, or matched by a RegExp. */
  readonly path?: string | RegExp;
  readonly status?: number;
  /** The problem `code` of the answer. */
  readonly code?: string;
}

const KINDS: Readonly<Record<keyof RequestFilter, (value: unknown) => boolean>> = {
  operationId: (v) => typeof v === 'string',
  method: (v) => typeof v === 'string',
  path: (v) => typeof v === 'string' || v instanceof RegExp,
  status: (v) => Number.isInteger(v),
  code: (v) => typeof v === 'string',
};

/** Checks a filter: an unknown field or a value of the wrong kind is a test's programming error, thrown. */
function checkFilter(filter: unknown): asserts filter is RequestFilter {
  if (typeof filter !== 'object' || filter === null)
    throw new TypeError(`requests: the filter must be an object, got ${shown(filter)}`);
  for (const [name, value] of Object.entries(filter)) {
    const fits = KINDS[name as keyof RequestFilter];
    if (!fits) throw new TypeError(`requests: unknown filter ${name}; known: ${Object.keys(KINDS).join(', ')}`);
    if (value !== undefined && !fits(value)) throw new TypeError(`requests: filter ${name} got ${shown(value)}`);
  }
}

/** The entries that match a filter, in the journal's order (oldest first, so the newest is last). */
export function filterRequests(entries: readonly JournalEntry[], filter: RequestFilter = {}): RecordedRequest[] {
  checkFilter(filter);
  const { operationId, method, path, status, code } = filter;
  const pathMatches = (p: string) =>
    path === undefined || (typeof path === 'string' ? p === path : new RegExp(path.source, path.flags).test(p));
  return entries.filter(
    (e) =>
      (operationId === undefined || e.operationId === operationId) &&
      (method === undefined || e.method.toUpperCase() === method.toUpperCase()) &&
      (status === undefined || e.status === status) &&
      (code === undefined || e.code === code) &&
      pathMatches(e.path),
  );
}
