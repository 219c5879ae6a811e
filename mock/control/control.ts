import type { MockServices } from '../http/services.js';
import type { MockOptions } from '../options.js';
import { mockStats, type MockStats } from '../stats.js';
import { tenantControl, type TenantControl } from './tenant.js';

export type { MockStats } from '../stats.js';

/**
 * The narrow control API of a built mock, for tests and benchmarks in the same process: what they need to drive
 * and observe the mock beyond HTTP, without reaching its store, engine or limiter. The Testing API
 * (docs/DESIGN.md, "Testing API") is meant to be built on top of it.
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

/** The control API over the mock's internal parts; `options` are the whole options the mock was built with. */
export function createControl(services: MockServices, given: MockOptions): MockControl {
  const { store, engine } = services;
  const options = Object.freeze({ ...given });
  return {
    options,
    tenant: (org) => tenantControl(services, org),
    orgs: () => store.orgs(),
    stats: () => mockStats(services),
    idle: () => engine.idle(),
  };
}
