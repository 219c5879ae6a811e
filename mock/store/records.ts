import type { EntityKind, EntityMap } from './entities.js';

/** The header of a state file: what the state was written for. A restart with other settings is refused. */
export interface StateHeader {
  readonly format: 'opsapi-state';
  readonly version: 1;
  readonly seed: number;
  readonly skus: number;
}

/** One entity value of one kind as the state keeps it (the latest `after` of its changes; null: removed). */
export interface EntityRecordOf<K extends EntityKind> {
  readonly entity: K;
  readonly id: string;
  readonly after: EntityMap[K] | null;
}

/** One entity value as the state keeps it, typed like the store's changes (a union over the kinds). */
export type EntityRecord<K extends EntityKind = EntityKind> = { [P in K]: EntityRecordOf<P> }[K];

/** The record a change (or a journal line) leaves in the state: its kind, id and value, kept paired by the type. */
export function entityRecordOf<K extends EntityKind>(entry: EntityRecordOf<K>): EntityRecord<K> {
  return { entity: entry.entity, id: entry.id, after: entry.after };
}

/** A line of the journal. */
export type JournalRecord =
  | ({ readonly t: 'change'; readonly org: string } & EntityRecord)
  | { readonly t: 'reset'; readonly org: string }
  | { readonly t: 'reset-all' };

/** The snapshot: the header and, per tenant, every entity that differs from its seeded world. */
export interface Snapshot extends StateHeader {
  readonly tenants: Record<string, EntityRecord[]>;
}

/** Raised for a state file that cannot be trusted; the mock refuses to start rather than start empty. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}
