import type { ApiKey } from '../../spec/schemas/access.js';
import type { Family } from '../../spec/schemas/items.js';
import type { Asset } from '../../spec/schemas/maintenance.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type { SkuRecord } from '../../fixtures/seed/model.js';

/** An API key with the tenant and permissions of its creator (docs/DESIGN.md, "Credentials and tokens": the key acts as its creator). */
export interface ApiKeyRecord {
  readonly apiKey: ApiKey;
  readonly subject: string;
  readonly permissions: readonly string[];
  readonly roles: readonly string[];
}

/** A family that was deleted: kept as a tombstone so a second delete answers ALREADY_DELETED. */
export interface FamilyTombstone {
  readonly family: Family;
  readonly deletedAt: string;
}

/**
 * The entities a tenant's state holds, by kind: the value a change of that kind carries in `before`/`after`
 * (and the persistence journal keeps). The one table the write seam is typed from.
 */
export interface EntityMap {
  /** Keyed by SKU reference. */
  sku: SkuRecord;
  /** A live family, or the tombstone of a deleted one. */
  family: Family | FamilyTombstone;
  asset: Asset;
  /** Keyed by `lineKey(purchaseOrderId, lineId)`. */
  purchaseOrderLine: PurchaseOrderLine;
  apiKey: ApiKeyRecord;
  subscription: Subscription;
  notification: Notification;
  /** Keyed by `<notificationId>/<attemptId>`. */
  attempt: DeliveryAttempt;
  /** The tenant's virtual clock offset (ms); id `offset`. */
  clock: number;
}

/** The kinds of entity a tenant holds. */
export type EntityKind = keyof EntityMap;
