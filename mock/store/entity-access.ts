import type { Asset } from '../../spec/schemas/maintenance.js';
import type { Family, SkuListItem } from '../../spec/schemas/items.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type { ListCollection } from '../lists/index.js';
import type { ApiKeyRecord, EntityKind, EntityMap, FamilyTombstone } from './entities.js';
import type { SkuRecords } from './sku-records.js';

/** The collections of a tenant the accessors read and write (a `TenantState` is one). */
interface EntityCollections {
  readonly skuRecords: SkuRecords;
  readonly skus: ListCollection<SkuListItem>;
  readonly families: ListCollection<Family>;
  readonly familyTombstones: Map<string, FamilyTombstone>;
  readonly assets: ListCollection<Asset>;
  readonly purchaseOrderLines: Map<string, PurchaseOrderLine>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly apiKeysByValue: Map<string, string>;
  readonly subscriptions: ListCollection<Subscription>;
  readonly notifications: ListCollection<Notification>;
  readonly pendingNotifications: Set<string>;
  readonly attempts: Map<string, DeliveryAttempt[]>;
  readonly clock: { readonly offset: number; restore(offsetMs: number): void };
}

/** How one kind of entity is read from and written to a tenant's collections. */
export interface EntityAccessor<K extends EntityKind> {
  /** The current value, as a change records it in `before` (undefined: none). */
  read(id: string): EntityMap[K] | undefined;
  /** Stores `after`, or removes the entity on null (commit and the replay of persisted changes). */
  write(id: string, after: EntityMap[K] | null): void;
}

/**
 * One accessor per kind. Typed as a mapped type so `access[change.entity].write(change.id, change.after)` checks
 * without casts: the kind picks the accessor and the value type together (TypeScript's correlated-union pattern).
 */
export type EntityAccess = { readonly [K in EntityKind]: EntityAccessor<K> };

/** `<notificationId>/<attemptId>` split at the first slash (no slash: the whole id names the notification). */
function attemptKey(id: string): { notificationId: string; attemptId: string } {
  const [notificationId = ''] = id.split('/');
  return { notificationId, attemptId: notificationId ? id.slice(notificationId.length + 1) : '' };
}

/** The accessors of a tenant's collections. */
export function entityAccess(state: EntityCollections): EntityAccess {
  return {
    sku: {
      read: (id) => state.skuRecords.get(id),
      write: (id, record) => {
        if (record) {
          state.skuRecords.set(id, record);
          state.skus.set(record.item);
        } else {
          const old = state.skuRecords.get(id);
          state.skuRecords.delete(id);
          if (old) state.skus.delete(old.item.id);
        }
      },
    },
    family: {
      read: (id) => state.families.get(id) ?? state.familyTombstones.get(id),
      write: (id, value) => {
        if (value && 'deletedAt' in value) {
          state.families.delete(id);
          state.familyTombstones.set(id, value);
        } else if (value) {
          state.familyTombstones.delete(id);
          state.families.set(value);
        } else {
          state.families.delete(id);
          state.familyTombstones.delete(id);
        }
      },
    },
    asset: {
      read: (id) => state.assets.get(id),
      write: (id, asset) => {
        if (asset) state.assets.set(asset);
        else state.assets.delete(id);
      },
    },
    purchaseOrderLine: {
      read: (id) => state.purchaseOrderLines.get(id),
      write: (id, line) => {
        if (line) state.purchaseOrderLines.set(id, line);
        else state.purchaseOrderLines.delete(id);
      },
    },
    apiKey: {
      read: (id) => state.apiKeys.get(id),
      write: (id, record) => {
        const old = state.apiKeys.get(id);
        if (old) state.apiKeysByValue.delete(old.apiKey.key);
        if (record) {
          state.apiKeys.set(id, record);
          state.apiKeysByValue.set(record.apiKey.key, id);
        } else state.apiKeys.delete(id);
      },
    },
    subscription: {
      read: (id) => state.subscriptions.get(id),
      write: (id, subscription) => {
        if (subscription) state.subscriptions.set(subscription);
        else state.subscriptions.delete(id);
      },
    },
    notification: {
      read: (id) => state.notifications.get(id),
      write: (id, notification) => {
        if (notification) state.notifications.set(notification);
        // A notification still Pending keeps its place (adding a value a Set holds leaves it where it is); one that
        // becomes Pending again (a manual retry) goes last.
        if (notification?.status === 'Pending') state.pendingNotifications.add(id);
        else state.pendingNotifications.delete(id);
        if (!notification) {
          state.notifications.delete(id);
          state.attempts.delete(id);
        }
      },
    },
    attempt: {
      read: (id) => {
        const { notificationId, attemptId } = attemptKey(id);
        return notificationId ? state.attempts.get(notificationId)?.find((a) => a.id === attemptId) : undefined;
      },
      write: (id, attempt) => {
        const { notificationId, attemptId } = attemptKey(id);
        if (!notificationId) return;
        const list = state.attempts.get(notificationId) ?? [];
        const index = list.findIndex((a) => a.id === attemptId);
        if (attempt) {
          if (index === -1) list.push(attempt);
          else list[index] = attempt;
        } else if (index !== -1) list.splice(index, 1);
        state.attempts.set(notificationId, list);
      },
    },
    clock: {
      read: () => state.clock.offset,
      // A removed (or, from an older state file, non-numeric) offset is no offset.
      write: (_id, offset) => state.clock.restore(typeof offset === 'number' ? offset : 0),
    },
  };
}
