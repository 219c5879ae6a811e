import type { EntityRecord } from '../store/records.js';
import type { Change } from '../store/change.js';
import { raiseIdFloors } from '../store/id-floor.js';
import type { TenantState } from '../store/tenant-state.js';
import type { ReadEntry } from './log-entry.js';

/** How far a tenant's copy in this process has followed the tenant's log. */
export interface Position {
  epoch: string;
  last: string;
}

/**
 * Applies log entries to a replica's copy of a tenant, in log order. The replica's own entries are in its copy
 * already (each was applied before it was appended), so they are skipped, unless the copy is `fresh` (seeded anew) or
 * another replica's entry of the same entity came before one of them: then it is applied again, so the copy ends as
 * the log orders them. Id sequences continue past every id applied. Returns the last entry id read and whether API
 * keys were among the entries applied (the caller indexes them).
 */
export function applyEntries(
  copy: TenantState,
  read: { readonly entries: readonly ReadEntry[]; readonly last: string | undefined },
  self: string,
  fresh: boolean,
): { id: string | undefined; keys: boolean } {
  const foreign = new Set<string>();
  const applied: EntityRecord[] = [];
  for (const { replica, record } of read.entries) {
    const key = `${record.entity}\u0000${record.id}`;
    if (replica !== self) foreign.add(key);
    else if (!fresh && !foreign.has(key)) continue;
    copy.apply({
      org: copy.org,
      entity: record.entity,
      id: record.id,
      before: null,
      after: record.after,
      at: 0,
    } as Change);
    applied.push(record);
  }
  if (applied.length > 0) raiseIdFloors(copy, applied);
  return { id: read.last, keys: applied.some((r) => r.entity === 'apiKey') };
}

/** The later of two stream ids (`ms-seq`; '' or undefined: none). */
export function laterId(a: string | undefined, b: string | undefined): string {
  if (!a) return b ?? '';
  if (!b) return a;
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am > bm || (am === bm && as >= bs) ? a : b;
}
