import type { Family, SkuListItem } from '../../spec/schemas/items.js';
import type { Asset } from '../../spec/schemas/maintenance.js';
import type { Tenant } from '../../spec/schemas/admin.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { DeliveryAttempt, Notification, Subscription } from '../../spec/schemas/notifications.js';
import type { CompactWorld, FixtureManifest, Lot, StockLocation, UnitOfMeasure } from '../../fixtures/seed/index.js';
import type { ListCollection } from '../lists/index.js';
import { TenantData } from './tenant-data.js';
import type { SkuRecords } from './sku-records.js';
import { standaloneBudget, type CacheAccount } from '../lists/cache-budget.js';
import { VirtualClock, type Clock } from '../clock.js';
import type { Change, ChangeEvent, ChangeListener } from './change.js';
import type { ApiKeyRecord, EntityKind, EntityMap, FamilyTombstone } from './entities.js';
import { entityAccess, type EntityAccess } from './entity-access.js';
import { IdSequence, tenantTag } from './ids.js';
import { RequestJournal } from './journal.js';

export { lineKey } from './tenant-data.js';

/**
 * All the state of one tenant. Reads are direct; every write goes through `commit`, which applies a `Change`
 * and hands it to the store's listeners (webhooks, persistence, journal).
 */
export class TenantState {
  readonly tag: string;
  readonly clock: VirtualClock;
  readonly ids: IdSequence;
  readonly journal = new RequestJournal();

  /** The collections, built from the seeded world on first use (null: not in memory). */
  private data: TenantData | null = null;
  /** Whether anything was written or replayed: the data then is the tenant's own and never dropped. */
  private modified = false;

  get tenant(): Tenant {
    return this.world().tenant;
  }
  get manifest(): FixtureManifest {
    return this.world().manifest;
  }
  get unitsOfMeasure(): Map<string, UnitOfMeasure> {
    return this.world().unitsOfMeasure;
  }
  get locations(): Map<string, StockLocation> {
    return this.world().locations;
  }
  get lots(): ReadonlyMap<string, Lot> {
    return this.world().lots;
  }
  get skus(): ListCollection<SkuListItem> {
    return this.world().skus;
  }
  get skuRecords(): SkuRecords {
    return this.world().skuRecords;
  }
  get families(): ListCollection<Family> {
    return this.world().families;
  }
  get familyTombstones(): Map<string, FamilyTombstone> {
    return this.world().familyTombstones;
  }
  get assets(): ListCollection<Asset> {
    return this.world().assets;
  }
  get purchaseOrderLines(): Map<string, PurchaseOrderLine> {
    return this.world().purchaseOrderLines;
  }
  get apiKeys(): Map<string, ApiKeyRecord> {
    return this.world().apiKeys;
  }
  get apiKeysByValue(): Map<string, string> {
    return this.world().apiKeysByValue;
  }
  get subscriptions(): ListCollection<Subscription> {
    return this.world().subscriptions;
  }
  get notifications(): ListCollection<Notification> {
    return this.world().notifications;
  }
  get pendingNotifications(): Set<string> {
    return this.world().pendingNotifications;
  }
  get attempts(): Map<string, DeliveryAttempt[]> {
    return this.world().attempts;
  }

  /** Notifications stored, without building the world of a tenant that has none in memory (figures, stats). */
  get notificationCount(): number {
    return this.data?.notifications.size ?? 0;
  }

  /** Whether the collections are in memory. */
  get worldInMemory(): boolean {
    return this.data !== null;
  }

  /** Real-time instant of the last request, for least-recently-used eviction. */
  lastUsed = 0;

  /** Writes committed to this tenant since it was seeded (an evicted tenant with writes loses them). */
  writes = 0;

  /** Set when this world replaces one evicted with writes: what was dropped (told once, by `evictionWarning`). */
  reseeded: { writes: number; at: number } | undefined;

  /** Reads and writes of each kind of entity, for the write seam. */
  private readonly access: EntityAccess = entityAccess(this);

  private readonly account: CacheAccount;

  /**
   * `world`: the seeded world, or how to seed it (then a tenant that never wrote may drop its collections and build
   * them again: `releaseWorld`). `caches`: the tenant's account of the mock's list cache budget (`--cache-mb`);
   * alone, a budget of its own. `onWorld`: told each time the collections are built.
   */
  constructor(
    readonly org: string,
    private readonly world0: CompactWorld | (() => CompactWorld),
    readonly webhookSecret: string,
    baseClock: Clock,
    private readonly listener: ChangeListener,
    caches?: CacheAccount,
    private readonly onWorld?: (tenant: TenantState) => void,
  ) {
    this.account = caches ?? standaloneBudget().account();
    this.tag = tenantTag(org);
    this.clock = new VirtualClock(baseClock);
    this.ids = new IdSequence(this.tag);
  }

  /** The collections, built from the seeded world when they are not in memory. */
  private world(): TenantData {
    if (this.data) return this.data;
    const world = typeof this.world0 === 'function' ? this.world0() : this.world0;
    this.data = new TenantData(world, this.account);
    this.onWorld?.(this);
    return this.data;
  }

  /**
   * Drops the collections of a tenant that never wrote (nothing of its own is in them: its next read builds the same
   * ones again from the seed). False, and nothing dropped, once it wrote or had writes replayed.
   */
  releaseWorld(): boolean {
    if (this.modified || !this.data || typeof this.world0 !== 'function') return false;
    this.data.dropCaches();
    this.data = null;
    return true;
  }

  /** Whether anything was written or replayed into the tenant (its collections are then never dropped). */
  get isModified(): boolean {
    return this.modified;
  }

  /** Gives the list caches back to the budget (the tenant leaves memory: evicted or reset). */
  dropCaches(): void {
    this.data?.dropCaches();
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
    const before = this.current(entity, id) ?? null;
    const at = this.clock.now();
    // Two literals rather than a spread of `{ event }` or `{}`: every write passes here (a fan-out, hundreds at once).
    const change: Change<K> = event
      ? { org: this.org, entity, id, before, after, at, event }
      : { org: this.org, entity, id, before, after, at };
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
    this.modified = true;
    this.access[change.entity].write(change.id, change.after);
  }
}
