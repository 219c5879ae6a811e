import { generateWorld } from '../../fixtures/seed/index.js';
import type { Clock } from '../clock.js';
import type { Change, ChangeListener } from './change.js';
import { webhookSecretOf } from './ids.js';
import { LruCache } from '../lists/lru.js';
import { TenantState } from './tenant-state.js';

/** Orgs remembered as evicted with writes, so their next request can say the writes were dropped (bounded). */
const EVICTED_REMEMBERED = 100_000;

/** What the store tells of its tenant limit (`/__mock/stats`, the start-up banner). */
export interface TenantFigures {
  /** Tenants in memory now. */
  inMemory: number;
  /** Most kept in memory (`--max-tenants`). */
  max: number;
  /** Tenants evicted since start, and those of them that had writes (dropped, unless persisted). */
  evicted: number;
  evictedWithWrites: number;
}

/** Settings of the store. */
export interface StoreOptions {
  readonly seed: number;
  /** SKUs per tenant. */
  readonly skus: number;
  /** Most tenants kept in memory; the least recently used idle one is evicted beyond it. */
  readonly maxTenants: number;
  readonly jwtSecret: string;
  readonly clock: Clock;
}

/**
 * The tenants of the mock. Each tenant's world is seeded lazily and deterministically from (seed, org) the first
 * time the org is seen; a new org is a fresh isolated world. Every write of every tenant reaches `onChange`
 * listeners through `TenantState.commit`.
 */
export class Store {
  private readonly tenants = new Map<string, TenantState>();
  private readonly listeners: ChangeListener[] = [];
  /** Tenants that must never be evicted (e.g. ones with pending deliveries), by org. */
  private readonly pinned = new Set<string>();

  /** Orgs evicted while holding writes, with what was dropped: their next world carries the news. */
  private readonly droppedWrites = new LruCache<string, { writes: number; at: number }>(EVICTED_REMEMBERED);
  private evictions = 0;
  private evictionsWithWrites = 0;

  /** API key value -> org, so a key alone finds its tenant. */
  private readonly apiKeyOrgs = new Map<string, string>();

  constructor(readonly options: StoreOptions) {
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

  /** The tenant of an org, seeded on first use; marks it most recently used. */
  tenant(org: string): TenantState {
    let state = this.tenants.get(org);
    if (state) {
      this.tenants.delete(org);
      this.tenants.set(org, state);
    } else {
      state = this.create(org);
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

  /** Orgs in memory, least recently used first. */
  orgs(): string[] {
    return [...this.tenants.keys()];
  }

  /** Tenants never evicted because they hold persisted state (set by the persistence layer). */
  retained?: (org: string) => boolean;

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
    };
  }

  /** Forgets a tenant: its next request seeds a fresh world. */
  reset(org: string, reason: 'reset' | 'evict' = 'reset'): void {
    const state = this.tenants.get(org);
    if (reason === 'evict' && state) {
      this.evictions++;
      // Eviction must not lose acknowledged writes silently: the tenant's next request is told (evictionWarning).
      if (state.writes > 0) {
        this.evictionsWithWrites++;
        this.droppedWrites.set(org, { writes: state.writes, at: this.options.clock.now() });
      }
    }
    if (state) for (const key of state.apiKeysByValue.keys()) this.apiKeyOrgs.delete(key);
    this.tenants.delete(org);
    this.pinned.delete(org);
    for (const drop of this.onDrop) drop(org, reason);
  }

  /** Forgets every tenant. */
  resetAll(): void {
    for (const org of [...this.tenants.keys()]) this.reset(org);
  }

  private create(org: string): TenantState {
    const { seed, skus, jwtSecret, clock } = this.options;
    const world = generateWorld({ seed, org, skus });
    return new TenantState(org, world, webhookSecretOf(seed, org, jwtSecret), clock, (change: Change) => {
      for (const listener of this.listeners) listener(change);
    });
  }

  /** Evicts least recently used tenants beyond the limit, never `keep` (the tenant being served), pinned or retained ones. */
  private evict(keep: string): void {
    if (this.tenants.size <= this.options.maxTenants) return;
    for (const org of this.tenants.keys()) {
      if (this.tenants.size <= this.options.maxTenants) return;
      if (org === keep || this.pinned.has(org) || this.retained?.(org)) continue;
      this.reset(org, 'evict');
    }
  }
}
