import { boundedCache } from '../bounded-cache.js';
import { generateSharedWorld, type SharedWorld, tenantWorld } from '../../fixtures/seed/index.js';
import type { Clock } from '../clock.js';
import type { Change, ChangeListener } from './change.js';
import { webhookSecretOf } from './ids.js';
import { CacheBudget } from '../lists/cache-budget.js';
import { cacheBytesOf } from '../cache-memory.js';
import { TenantState } from './tenant-state.js';
import type { TenantLoader } from './tenant-loader.js';

/** Orgs remembered as evicted with writes, so their next request can say the writes were dropped (bounded). */
const EVICTED_REMEMBERED = 100_000;

/** What the store tells of its tenant limit (`/__mock/stats`, the start-up banner). */
interface TenantFigures {
  /** Tenants in memory now. */
  inMemory: number;
  /** Most kept in memory (`--max-tenants`). */
  max: number;
  /** Tenants evicted since start, and those of them that had writes (dropped, unless persisted). */
  evicted: number;
  evictedWithWrites: number;
  /** Tenants brought back from kept state (`--state`) on their next request, after an eviction or a restart. */
  reloaded: number;
  /** Tenants in memory whose world is built now (the others never wrote, and build it again on their next read). */
  worldsBuilt: number;
}

/** Who to evict (least recently used first) once `keep` came into memory; `orgs` are in memory, least recently used first. */
interface EvictionQuotas {
  victims(orgs: readonly string[], keep: string, evictable: (org: string) => boolean, maxTenants: number): string[];
}

/** Settings of the store. */
interface StoreOptions {
  readonly seed: number;
  /** SKUs per tenant. */
  readonly skus: number;
  /** Most tenants kept in memory; the least recently used idle one is evicted beyond it. */
  readonly maxTenants: number;
  /** What the tenants' webhook signing secrets derive from (`--webhook-key`, resolved by mock/webhook-key.ts). */
  readonly webhookKey: string;
  readonly clock: Clock;
  /** The list caches' byte budget over all tenants, MB (`--cache-mb`; absent or null: inferred from memory). */
  readonly cacheMb?: number | null;
  /** Most worlds of tenants that never wrote kept built in memory (default `WORLDS_KEPT`); see `worldBuilt`. */
  readonly maxWorlds?: number;
}

/**
 * Worlds of tenants that never wrote kept built (inferred): a default world costs ~105 KB built (its copies of the
 * records with ids and its list indexes; the seed's content is shared) and ~0.4 ms to build, so 256 of them are ~27 MB,
 * while a tenant that only reads costs a few KB beyond them.
 */
const WORLDS_KEPT = 256;

/**
 * The tenants of the mock. Each tenant's world is seeded lazily and deterministically from (seed, org) the first
 * time the org is seen; a new org is a fresh isolated world. The content of the seed is generated once, on the first
 * world built, and shared by every tenant's world, each under its own identifiers (../../fixtures/seed/tenant-world.ts).
 * Every write of every tenant reaches `onChange` listeners through `TenantState.commit`.
 */
export class Store {
  private readonly tenants = new Map<string, TenantState>();
  /** Tenants that never wrote whose world is built, least recently used first (`worldBuilt`). */
  private readonly builtWorlds = new Map<string, TenantState>();
  private readonly listeners: ChangeListener[] = [];
  /** Tenants that must never be evicted (e.g. ones with pending deliveries), by org. */
  private readonly pinned = new Set<string>();

  /** Orgs evicted while holding writes, with what was dropped: their next world carries the news (bounded). */
  private readonly droppedWrites = boundedCache<string, { writes: number; at: number }>(EVICTED_REMEMBERED);
  private evictions = 0;
  private evictionsWithWrites = 0;
  private reloads = 0;

  /** Who is evicted when a tenant comes into memory beyond the limit, when not the plain LRU rule (`useQuotas`). */
  private quotas: EvictionQuotas | undefined;

  /** Where evicted tenants' state is kept, if anywhere (`useLoader`). */
  private loader: TenantLoader | undefined;

  /** The content of the seed, every tenant's world built over it (`sharedWorld`). */
  private shared: SharedWorld | undefined;

  /** API key value -> org, so a key alone finds its tenant. */
  private readonly apiKeyOrgs = new Map<string, string>();

  /** The byte budget of every tenant's list caches (each tenant an account of it: its share is bounded too). */
  readonly caches: CacheBudget;
  /** What new tenants' webhook secrets derive from: `options.webhookKey` until `adoptWebhookKey`. */
  private webhookKey: string;

  constructor(readonly options: StoreOptions) {
    this.caches = new CacheBudget(cacheBytesOf(options.cacheMb));
    this.webhookKey = options.webhookKey;
    this.onChange((change) => {
      if (change.entity !== 'apiKey') return;
      if (change.before) this.apiKeyOrgs.delete(change.before.apiKey.key);
      if (change.after) this.apiKeyOrgs.set(change.after.apiKey.key, change.org);
    });
  }

  /** Indexes the API keys a tenant holds (after its state was restored without going through `commit`). */
  indexApiKeys(tenant: TenantState): void {
    for (const key of tenant.apiKeysByValue.keys()) this.apiKeyOrgs.set(key, tenant.org);
  }

  /**
   * Installs where evicted tenants' state is kept (persistence, `--state`): such a tenant may be evicted like any
   * other, and its next request reloads it (`tenant`). The API keys the loader holds are indexed at once, so a key
   * finds its tenant while the tenant is out of memory.
   */
  useLoader(loader: TenantLoader): void {
    this.loader = loader;
    for (const org of loader.orgs()) for (const key of loader.apiKeys(org)) this.apiKeyOrgs.set(key, org);
  }

  /** Installs per-group quotas of tenants in memory (teams: docs/DESIGN.md, "Team credentials (shared sandbox)"). */
  useQuotas(quotas: EvictionQuotas): void {
    this.quotas = quotas;
  }

  /** The org an API key value belongs to, if any. */
  apiKeyOrg(key: string): string | undefined {
    return this.apiKeyOrgs.get(key);
  }

  /** Registers a listener for every committed change. */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Registered callbacks when a tenant is evicted or reset. */
  readonly onDrop: ((org: string, reason: 'reset' | 'evict') => void)[] = [];

  /** Registered callbacks when every tenant is reset at once (also those not in memory: a replicated mock's). */
  readonly onResetAll: (() => void)[] = [];

  /**
   * The tenant of an org, seeded on first use (and its kept state reloaded, when the loader holds some); marks it
   * most recently used.
   */
  tenant(org: string): TenantState {
    let state = this.tenants.get(org);
    if (state) {
      this.tenants.delete(org);
      this.tenants.set(org, state);
      if (this.builtWorlds.delete(org)) this.builtWorlds.set(org, state);
    } else {
      state = this.create(org);
      if (this.loader?.holds(org)) {
        // Nothing was lost: no eviction Warning, the kept writes are replayed (not journaled again: no commit).
        this.loader.load(state);
        this.indexApiKeys(state);
        this.reloads++;
      }
      const dropped = this.droppedWrites.get(org);
      if (dropped) {
        state.reseeded = dropped;
        this.droppedWrites.delete(org);
      }
      this.tenants.set(org, state);
      this.evict(org);
    }
    state.lastUsed = this.options.clock.now();
    return state;
  }

  /** The tenant if it is in memory, without seeding or touching it. */
  peek(org: string): TenantState | undefined {
    return this.tenants.get(org);
  }

  /**
   * The tenant if it has a world: in memory (not touched, like `peek`), or out of memory with kept state (then
   * reloaded, like `tenant`). Undefined for an org with neither: nothing is seeded for it.
   */
  existing(org: string): TenantState | undefined {
    return this.tenants.get(org) ?? (this.loader?.holds(org) ? this.tenant(org) : undefined);
  }

  /** Orgs in memory, least recently used first. */
  orgs(): string[] {
    return [...this.tenants.keys()];
  }

  /** Keeps a tenant from eviction (or releases it). */
  pin(org: string, pinned: boolean): void {
    if (pinned) this.pinned.add(org);
    else this.pinned.delete(org);
  }

  /** The tenant limit and what eviction did so far. */
  figures(): TenantFigures {
    return {
      inMemory: this.tenants.size,
      max: this.options.maxTenants,
      evicted: this.evictions,
      evictedWithWrites: this.evictionsWithWrites,
      reloaded: this.reloads,
      worldsBuilt: [...this.tenants.values()].filter((t) => t.worldInMemory).length,
    };
  }

  /**
   * Forgets a tenant (`reset`: its next request seeds a fresh world), or drops it from memory (`evict`: a tenant the
   * loader holds comes back whole on its next request; any other comes back seeded afresh, its writes dropped).
   */
  reset(org: string, reason: 'reset' | 'evict' = 'reset'): void {
    const state = this.tenants.get(org);
    const kept = reason === 'evict' && this.loader?.holds(org) === true;
    if (reason === 'evict' && state) {
      this.evictions++;
      if (kept || state.writes > 0) this.evictionsWithWrites++;
      // Eviction must not lose acknowledged writes silently: the tenant's next request is told (evictionWarning).
      if (!kept && state.writes > 0) {
        this.droppedWrites.set(org, { writes: state.writes, at: this.options.clock.now() });
      }
    }
    // A kept tenant's keys stay indexed; a reset one's go, also when it is out of memory (read before onDrop forgets it).
    if (!kept) {
      const keys = state ? state.apiKeysByValue.keys() : (this.loader?.apiKeys(org) ?? []);
      for (const key of [...keys]) this.apiKeyOrgs.delete(key);
    }
    state?.dropCaches();
    this.tenants.delete(org);
    this.builtWorlds.delete(org);
    this.pinned.delete(org);
    for (const drop of this.onDrop) drop(org, reason);
  }

  /** Forgets every tenant, those out of memory with kept state too. */
  resetAll(): void {
    const orgs = new Set([...this.tenants.keys(), ...(this.loader?.orgs() ?? [])]);
    for (const org of orgs) this.reset(org);
    for (const reset of this.onResetAll) reset();
  }

  /** The seed's content, generated on first use (no tenant ever seeded: nothing generated). */
  private sharedWorld(): SharedWorld {
    const { seed, skus } = this.options;
    this.shared ??= generateSharedWorld({ seed, skus });
    return this.shared;
  }

  /**
   * The key the tenants' webhook secrets derive from from now on (a replica joining the key Redis holds, at its start or
   * after Redis lost its data, mock/replication/index.ts); tenants already in memory keep theirs until they are reset.
   */
  adoptWebhookKey(key: string): void {
    this.webhookKey = key;
  }

  /** The key new tenants' webhook secrets derive from. */
  get webhookKeyInUse(): string {
    return this.webhookKey;
  }

  private create(org: string): TenantState {
    const { seed, clock } = this.options;
    const webhookKey = this.webhookKey;
    const emit = (change: Change) => {
      for (const listener of this.listeners) listener(change);
    };
    return new TenantState(
      org,
      () => tenantWorld(this.sharedWorld(), org),
      webhookSecretOf(seed, org, webhookKey),
      clock,
      emit,
      this.caches.account(),
      (state) => this.worldBuilt(state),
    );
  }

  /**
   * A tenant's world was built. Tenants cost little until they write: beyond `maxWorlds` built worlds, the least
   * recently used tenant that never wrote drops its world (it stays a tenant: clock, journal, coverage), and its next
   * read builds the same world again from the seed. Tenants that wrote keep theirs (eviction rules apply to them).
   */
  private worldBuilt(state: TenantState): void {
    this.builtWorlds.delete(state.org);
    this.builtWorlds.set(state.org, state);
    const max = this.options.maxWorlds ?? WORLDS_KEPT;
    for (const [org, other] of this.builtWorlds) {
      if (this.builtWorlds.size <= max) return;
      if (other === state) continue;
      this.builtWorlds.delete(org);
      other.releaseWorld();
    }
  }

  /**
   * Evicts least recently used tenants beyond the limit, never `keep` (the tenant being served) nor a pinned one
   * (deliveries scheduled or under way). Tenants the loader holds go too: their next request reloads them.
   */
  private evict(keep: string): void {
    if (this.quotas) {
      const evictable = (org: string) => !this.pinned.has(org);
      for (const org of this.quotas.victims(this.orgs(), keep, evictable, this.options.maxTenants))
        this.reset(org, 'evict');
      return;
    }
    if (this.tenants.size <= this.options.maxTenants) return;
    for (const org of this.tenants.keys()) {
      if (this.tenants.size <= this.options.maxTenants) return;
      if (org === keep || this.pinned.has(org)) continue;
      this.reset(org, 'evict');
    }
  }
}
