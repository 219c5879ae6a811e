import type { Family, SkuListItem } from '../../spec/schemas/items.js';
import type { Asset } from '../../spec/schemas/maintenance.js';
import type { Tenant } from '../../spec/schemas/admin.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type {
  FixtureManifest,
  Lot,
  SkuRecord,
  StockLocation,
  UnitOfMeasure,
  World,
} from '../../fixtures/seed/model.js';
import { ListCollection } from '../lists/index.js';
import { standaloneBudget, type CacheAccount } from '../lists/cache-budget.js';
import { VirtualClock, type Clock } from '../clock.js';
import type { Change, ChangeEvent, ChangeListener } from './change.js';
import type { ApiKeyRecord, EntityKind, EntityMap, FamilyTombstone } from './entities.js';
import { entityAccess, type EntityAccess } from './entity-access.js';
import { IdSequence, tenantTag } from './ids.js';
import { RequestJournal } from './journal.js';

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

  readonly skus: ListCollection<SkuListItem>;
  readonly skuRecords = new Map<string, SkuRecord>();
  readonly families: ListCollection<Family>;
  readonly familyTombstones = new Map<string, FamilyTombstone>();
  readonly assets: ListCollection<Asset>;
  readonly purchaseOrderLines = new Map<string, PurchaseOrderLine>();

  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly apiKeysByValue = new Map<string, string>();
  readonly subscriptions: ListCollection<Subscription>;
  readonly notifications: ListCollection<Notification>;
  /**
   * Attempts per notification, oldest first. Plain arrays, not indexed collections: a notification has a handful
   * of attempts and a tenant may hold thousands of notifications, so an index per notification would cost more
   * memory than it saves time (the list engine filters and sorts iterables directly).
   */
  readonly attempts = new Map<string, DeliveryAttempt[]>();

  /** Real-time instant of the last request, for least-recently-used eviction. */
  lastUsed = 0;

  /** Writes committed to this tenant since it was seeded (an evicted tenant with writes loses them). */
  writes = 0;

  /** Set when this world replaces one evicted with writes: what was dropped (told once, by `evictionWarning`). */
  reseeded: { writes: number; at: number } | undefined;

  /** Reads and writes of each kind of entity, for the write seam. */
  private readonly access: EntityAccess = entityAccess(this);

  /** `caches`: the tenant's account of the mock's list cache budget (`--cache-mb`); alone, a budget of its own. */
  constructor(
    readonly org: string,
    world: World,
    readonly webhookSecret: string,
    baseClock: Clock,
    private readonly listener: ChangeListener,
    caches?: CacheAccount,
  ) {
    const account = caches ?? standaloneBudget().account();
    this.skus = new ListCollection([], account);
    this.families = new ListCollection([], account);
    this.assets = new ListCollection([], account);
    this.subscriptions = new ListCollection([], account);
    this.notifications = new ListCollection([], account);
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
    for (const line of world.purchaseOrderLines)
      this.purchaseOrderLines.set(lineKey(line.purchaseOrderId, line.id), line);
  }

  /** Gives the list caches back to the budget (the tenant leaves memory: evicted or reset). */
  dropCaches(): void {
    for (const list of [this.skus, this.families, this.assets, this.subscriptions, this.notifications])
      list.dropCaches();
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
  commit<K extends EntityKind>(entity: K, id: string, after: EntityMap[K] | null, event?: ChangeEvent): Change<K> {
    const change: Change<K> = {
      org: this.org,
      entity,
      id,
      before: this.current(entity, id) ?? null,
      after,
      at: this.clock.now(),
      ...(event ? { event } : {}),
    };
    this.apply(change);
    this.writes++;
    // Widening a change of one kind to the union of all kinds is sound, but TypeScript cannot relate a generic
    // correlated type to its union (microsoft/TypeScript#30581), so this one assertion states it.
    this.listener(change as Change);
    return change;
  }

  /** The current value of an entity, as a change records it. */
  current<K extends EntityKind>(entity: K, id: string): EntityMap[K] | undefined {
    return this.access[entity].read(id);
  }

  /** Applies a change to the collections (also used to replay persisted changes). */
  apply<K extends EntityKind>(change: Change<K>): void {
    this.access[change.entity].write(change.id, change.after);
  }
}
