import type { TenantState } from './tenant-state.js';

/**
 * Where a tenant's state lives while its world is out of memory (persistence, `--state`, installs one with
 * `Store.useLoader`). With a loader, evicting a tenant it holds loses nothing: the tenant's next request seeds its
 * world again (deterministic from seed and org) and `load` replays the kept state on top, as a restart does.
 * Inferred (docs/DESIGN.md, "Shared sandbox": memory bounded by `--max-tenants`, no acknowledged write lost).
 */
export interface TenantLoader {
  /** Whether the org has kept state (evicting it then drops nothing). */
  holds(org: string): boolean;
  /** Replays the org's kept state onto its freshly seeded world: entities, API keys, id sequences, clock offset. */
  load(tenant: TenantState): void;
  /** The orgs with kept state (a reset of every tenant resets those out of memory too). */
  orgs(): Iterable<string>;
  /** The API key values the org's kept state holds (so a key finds its tenant while it is out of memory). */
  apiKeys(org: string): Iterable<string>;
}
