import type { ApiKey } from '../../spec/schemas/access.js';
import type { Family, SkuListItem } from '../../spec/schemas/items.js';
import type { Asset } from '../../spec/schemas/maintenance.js';
import type { Tenant } from '../../spec/schemas/admin.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type { FixtureManifest, Lot, SkuRecord, StockLocation, UnitOfMeasure, World } from '../../fixtures/seed/model.js';
import { ListCollection } from '../lists/index.js';
import { VirtualClock, type Clock } from '../clock.js';
import type { Change, ChangeEvent, ChangeListener, EntityKind } from './change.js';
import { IdSequence, tenantTag } from './ids.js';
import { RequestJournal } from './journal.js';

/** An API key with the tenant and permissions of its creator (DESIGN: the key acts as its creator). */
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

/** Key of a purchase order line in the tenant's map. */
export function lineKey(purchaseOrderId: string, lineId: string): string {
  return `${purchaseOrderId}\u0000${lineId}`;
}

/**
 * All the state of one tenant. Reads are direct; every write goes through `commit`, which applies a `Change`
 * and hands it to the store's listeners (webhooks, persistence, journal).
 */
export class TenantState {
  readonly tag: string;
  readonly clock: VirtualClock;
  readonly ids: IdSequence;
  readonly journal = new RequestJournal();

  tenant: Tenant;
  manifest: FixtureManifest;
  readonly unitsOfMeasure = new Map<string, UnitOfMeasure>();
  readonly locations = new Map<string, StockLocation>();
  readonly lots = new Map<string, Lot>();

  readonly skus = new ListCollection<SkuListItem>();
  readonly skuRecords = new Map<string, SkuRecord>();
  readonly families = new ListCollection<Family>();
  readonly familyTombstones = new Map<string, FamilyTombstone>();
  readonly assets = new ListCollection<Asset>();
  readonly purchaseOrderLines = new Map<string, PurchaseOrderLine>();

  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly apiKeysByValue = new Map<string, string>();
  readonly subscriptions = new ListCollection<Subscription>();
  readonly notifications = new ListCollection<Notification>();
  /**
   * Attempts per notification, oldest first. Plain arrays, not indexed collections: a notification has a handful
   * of attempts and a tenant may hold thousands of notifications, so an index per notification would cost more
   * memory than it saves time (the list engine filters and sorts iterables directly).
   */
  readonly attempts = new Map<string, DeliveryAttempt[]>();

  /** Real-time instant of the last request, for least-recently-used eviction. */
  lastUsed = 0;

  constructor(
    readonly org: string,
    world: World,
    readonly webhookSecret: string,
    baseClock: Clock,
    private readonly listener: ChangeListener,
  ) {
    this.tag = tenantTag(org);
    this.clock = new VirtualClock(baseClock);
    this.ids = new IdSequence(this.tag);
    this.tenant = world.tenant;
    this.manifest = world.manifest;
    for (const u of world.unitsOfMeasure) this.unitsOfMeasure.set(u.id, u);
    for (const l of world.locations) this.locations.set(l.reference, l);
    for (const l of world.lots) this.lots.set(l.id, l);
    for (const record of world.skus) {
      this.skuRecords.set(record.item.reference, record);
      this.skus.set(record.item);
    }
    for (const f of world.families) this.families.set(f);
    for (const a of world.assets) this.assets.set(a);
    for (const line of world.purchaseOrderLines) this.purchaseOrderLines.set(lineKey(line.purchaseOrderId, line.id), line);
  }

  /** The tenant clock's current time as ISO 8601. */
  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The attempts of a notification, oldest first (empty when it has none). */
  attemptsOf(notificationId: string): readonly DeliveryAttempt[] {
    return this.attempts.get(notificationId) ?? [];
  }

  /** Records a write: builds the change, applies it, and hands it to the listeners. The one write seam. */
  commit(entity: EntityKind, id: string, after: unknown, event?: ChangeEvent): Change {
    const change: Change = { org: this.org, entity, id, before: this.current(entity, id) ?? null, after, at: this.clock.now(), ...(event ? { event } : {}) };
    this.apply(change);
    this.listener(change);
    return change;
  }

  /** The current value of an entity, as a change records it. */
  current(entity: EntityKind, id: string): unknown {
    switch (entity) {
      case 'sku':
        return this.skuRecords.get(id);
      case 'family':
        return this.families.get(id) ?? this.familyTombstones.get(id);
      case 'asset':
        return this.assets.get(id);
      case 'purchaseOrderLine':
        return this.purchaseOrderLines.get(id);
      case 'apiKey':
        return this.apiKeys.get(id);
      case 'subscription':
        return this.subscriptions.get(id);
      case 'notification':
        return this.notifications.get(id);
      case 'attempt': {
        const [notificationId] = id.split('/');
        const attemptId = notificationId ? id.slice(notificationId.length + 1) : '';
        return notificationId ? this.attempts.get(notificationId)?.find((a) => a.id === attemptId) : undefined;
      }
      case 'clock':
        return this.clock.offset;
    }
  }

  /** Applies a change to the collections (also used to replay persisted changes). */
  apply(change: Change): void {
    const { entity, id, after } = change;
    switch (entity) {
      case 'sku': {
        const record = after as SkuRecord | null;
        if (record) {
          this.skuRecords.set(id, record);
          this.skus.set(record.item);
        } else {
          const old = this.skuRecords.get(id);
          this.skuRecords.delete(id);
          if (old) this.skus.delete(old.item.id);
        }
        return;
      }
      case 'family': {
        const value = after as Family | FamilyTombstone | null;
        if (value && 'deletedAt' in value) {
          this.families.delete(id);
          this.familyTombstones.set(id, value);
        } else if (value) {
          this.familyTombstones.delete(id);
          this.families.set(value);
        } else {
          this.families.delete(id);
          this.familyTombstones.delete(id);
        }
        return;
      }
      case 'asset':
        if (after) this.assets.set(after as Asset);
        else this.assets.delete(id);
        return;
      case 'purchaseOrderLine':
        if (after) this.purchaseOrderLines.set(id, after as PurchaseOrderLine);
        else this.purchaseOrderLines.delete(id);
        return;
      case 'apiKey': {
        const record = after as ApiKeyRecord | null;
        const old = this.apiKeys.get(id);
        if (old) this.apiKeysByValue.delete(old.apiKey.key);
        if (record) {
          this.apiKeys.set(id, record);
          this.apiKeysByValue.set(record.apiKey.key, id);
        } else this.apiKeys.delete(id);
        return;
      }
      case 'subscription':
        if (after) this.subscriptions.set(after as Subscription);
        else this.subscriptions.delete(id);
        return;
      case 'notification':
        if (after) this.notifications.set(after as Notification);
        else {
          this.notifications.delete(id);
          this.attempts.delete(id);
        }
        return;
      case 'attempt': {
        const attempt = after as DeliveryAttempt | null;
        const [notificationId] = id.split('/');
        if (!notificationId) return;
        const attemptId = id.slice(notificationId.length + 1);
        const list = this.attempts.get(notificationId) ?? [];
        const index = list.findIndex((a) => a.id === attemptId);
        if (attempt) {
          if (index === -1) list.push(attempt);
          else list[index] = attempt;
        } else if (index !== -1) list.splice(index, 1);
        this.attempts.set(notificationId, list);
        return;
      }
      case 'clock':
        this.clock.restore(typeof after === 'number' ? after : 0);
        return;
    }
  }
}
