import type { EntityKind } from '../store/change.js';

/** The header of a state file: what the state was written for. A restart with other settings is refused. */
export interface StateHeader {
  readonly format: 'opsapi-state';
  readonly version: 1;
  readonly seed: number;
  readonly skus: number;
}

/** One entity value as the state keeps it (the latest `after` of its changes; null: removed). */
export interface EntityRecord {
  readonly entity: EntityKind;
  readonly id: string;
  readonly after: unknown;
}

/** A line of the journal. */
export type JournalRecord =
  | { readonly t: 'change'; readonly org: string; readonly entity: EntityKind; readonly id: string; readonly after: unknown }
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
