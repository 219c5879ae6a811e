import type { EntityKind, EntityMap } from './entities.js';

export type { EntityKind } from './entities.js';

/** An event a change announces (webhook emission hangs off the change seam). */
export interface ChangeEvent {
  readonly eventName: string;
  readonly eventVersion?: number;
  readonly data: Record<string, unknown>;
}

/** One recorded write of one kind of entity: `before` and `after` are that kind's value. */
export interface ChangeOf<K extends EntityKind> {
  readonly org: string;
  readonly entity: K;
  readonly id: string;
  readonly before: EntityMap[K] | null;
  /** The entity after the write; null when it was removed. */
  readonly after: EntityMap[K] | null;
  /** Tenant clock time of the write (epoch ms). */
  readonly at: number;
  readonly event?: ChangeEvent;
}

/**
 * One recorded write: the single seam every mutation of tenant state goes through. Webhook emission,
 * persistence and the request journal read these; replaying `after` (or deleting on null) rebuilds state.
 * Without a type argument it is the union over every kind, so `change.entity === 'apiKey'` narrows `after`.
 */
export type Change<K extends EntityKind = EntityKind> = { [P in K]: ChangeOf<P> }[K];

/** Receives every committed change. */
export type ChangeListener = (change: Change) => void;
