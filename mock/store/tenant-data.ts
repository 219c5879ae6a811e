import type { Family, SkuListItem } from '../../spec/schemas/items.js';
import type { Asset } from '../../spec/schemas/maintenance.js';
import type { Tenant } from '../../spec/schemas/admin.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type { CompactWorld, FixtureManifest, Lot, StockLocation, UnitOfMeasure } from '../../fixtures/seed/index.js';
import { ListCollection } from '../lists/index.js';
import type { CacheAccount } from '../lists/cache-budget.js';
import type { ApiKeyRecord, FamilyTombstone } from './entities.js';
import { SkuRecords } from './sku-records.js';

/** Key of a purchase order line in the tenant's map. */
export function lineKey(purchaseOrderId: string, lineId: string): string {
  return `${purchaseOrderId}\u0000${lineId}`;
}

/**
 * The collections of one tenant, built from its seeded world: everything a write can change. A tenant that never
 * wrote can drop them and build them again from the same world (deterministic from seed and org): ./tenant-state.ts.
 */
export class TenantData {
  readonly tenant: Tenant;
  readonly manifest: FixtureManifest;
  readonly unitsOfMeasure = new Map<string, UnitOfMeasure>();
  readonly locations = new Map<string, StockLocation>();
  /** Seeded lots, built on request (never written). */
  readonly lots: ReadonlyMap<string, Lot>;

  readonly skus: ListCollection<SkuListItem>;
  /** By reference; seeded records are built on request from the compact catalog (./sku-records.ts). */
  readonly skuRecords: SkuRecords;
  readonly families: ListCollection<Family>;
  readonly familyTombstones = new Map<string, FamilyTombstone>();
  readonly assets: ListCollection<Asset>;
  readonly purchaseOrderLines = new Map<string, PurchaseOrderLine>();

  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly apiKeysByValue = new Map<string, string>();
  readonly subscriptions: ListCollection<Subscription>;
  readonly notifications: ListCollection<Notification>;
  /**
   * Ids of the Pending notifications, in the order they became Pending (kept by the write seam, ./entity-access.ts):
   * the bound on Pending notifications (mock/webhooks/pending-bound.ts) reads its count and its oldest on every
   * emission, which a pass over thousands of finished notifications made the largest part of a fan-out's cost.
   */
  readonly pendingNotifications = new Set<string>();
  /**
   * Attempts per notification, oldest first. Plain arrays, not indexed collections: a notification has a handful
   * of attempts and a tenant may hold thousands of notifications, so an index per notification would cost more
   * memory than it saves time (the list engine filters and sorts iterables directly).
   */
  readonly attempts = new Map<string, DeliveryAttempt[]>();

  constructor(world: CompactWorld, account: CacheAccount) {
    this.skus = new ListCollection([], account);
    this.families = new ListCollection([], account);
    this.assets = new ListCollection([], account);
    this.subscriptions = new ListCollection([], account);
    this.notifications = new ListCollection([], account);
    this.tenant = world.tenant;
    this.manifest = world.manifest;
    for (const u of world.unitsOfMeasure) this.unitsOfMeasure.set(u.id, u);
    for (const l of world.locations) this.locations.set(l.reference, l);
    this.lots = world.lots;
    this.skuRecords = new SkuRecords(world.skus);
    for (const item of world.skus.items) this.skus.set(item);
    for (const f of world.families) this.families.set(f);
    for (const a of world.assets) this.assets.set(a);
    for (const line of world.purchaseOrderLines)
      this.purchaseOrderLines.set(lineKey(line.purchaseOrderId, line.id), line);
  }

  /** Gives the list caches back to the budget. */
  dropCaches(): void {
    for (const list of [this.skus, this.families, this.assets, this.subscriptions, this.notifications])
      list.dropCaches();
  }
}
