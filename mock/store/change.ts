/** The kinds of entity a tenant holds. */
export type EntityKind =
  | 'sku'
  | 'family'
  | 'asset'
  | 'purchaseOrderLine'
  | 'apiKey'
  | 'subscription'
  | 'notification'
  | 'attempt'
  /** The tenant's virtual clock offset (ms); id `offset`. */
  | 'clock';

/** An event a change announces (webhook emission hangs off the change seam). */
export interface ChangeEvent {
  readonly eventName: string;
  readonly eventVersion?: number;
  readonly data: Record<string, unknown>;
}

/**
 * One recorded write: the single seam every mutation of tenant state goes through. Webhook emission,
 * persistence and the request journal read these; replaying `after` (or deleting on null) rebuilds state.
 */
export interface Change {
  readonly org: string;
  readonly entity: EntityKind;
  readonly id: string;
  readonly before: unknown;
  /** The entity after the write; null when it was removed. */
  readonly after: unknown;
  /** Tenant clock time of the write (epoch ms). */
  readonly at: number;
  readonly event?: ChangeEvent;
}

/** Receives every committed change. */
export type ChangeListener = (change: Change) => void;
