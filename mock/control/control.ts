import type { CacheFigures } from '../lists/cache-budget.js';
import type { MockServices } from '../http/services.js';
import type { MockOptions } from '../options.js';
import { tenantControl, type TenantControl } from './tenant.js';

/** Figures of the mock as a whole (the in-process part of `GET /__mock/stats`). */
export interface MockStats {
  /** Tenants in memory. */
  readonly tenants: number;
  /** Notifications stored over all tenants in memory. */
  readonly notifications: number;
  /** Notifications with a webhook attempt still scheduled, over all tenants. */
  readonly pendingDeliveries: number;
  /** The list engine's caches (`--cache-mb`), as `GET /__mock/stats` answers `listCaches`. */
  readonly listCaches: CacheFigures;
  /** Kept list pages, as `GET /__mock/stats` answers `listPages`; null when the mock keeps none (faults, decisions). */
  readonly listPages: CacheFigures | null;
}

/**
 * The narrow control API of a built mock, for tests and benchmarks in the same process: what they need to drive
 * and observe the mock beyond HTTP, without reaching its store, engine or limiter. The Testing API (DESIGN
 * "Testing API") is meant to be built on top of it.
 */
export interface MockControl {
  /** The resolved options the mock runs with. */
  readonly options: Readonly<MockOptions>;
  /** The control handle of a tenant (making the handle seeds nothing). */
  tenant(org: string): TenantControl;
  /** Orgs in memory, least recently used first (the eviction order under `maxTenants`). */
  orgs(): string[];
  stats(): MockStats;
  /** Resolves once every webhook attempt under way and every queued dispatch has finished. */
  idle(): Promise<void>;
}

/** The control API over the mock's internal parts. */
export function createControl(services: MockServices): MockControl {
  const { store, engine } = services;
  const options = Object.freeze({ ...services.options });
  return {
    options,
    tenant: (org) => tenantControl(services, org),
    orgs: () => store.orgs(),
    stats: () => {
      let notifications = 0;
      for (const org of store.orgs()) notifications += store.peek(org)?.notificationCount ?? 0;
      return {
        tenants: store.orgs().length,
        notifications,
        pendingDeliveries: engine.pendingCount(),
        listCaches: store.caches.figures(),
        listPages: services.pageTexts?.figures() ?? null,
      };
    },
    idle: () => engine.idle(),
  };
}
