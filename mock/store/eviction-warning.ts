import type { TenantState } from './tenant-state.js';

/**
 * The `Warning` header (RFC 9111 section 5.5, code 299: a persistent warning) for the first answer of a tenant whose
 * earlier world was evicted while it held writes (beyond `--max-tenants`, without `--state`): the writes are gone and
 * the world was seeded afresh, and the client is told instead of finding out from missing data. Undefined otherwise;
 * the news is given once.
 */
export function evictionWarning(tenant: TenantState, maxTenants: number): string | undefined {
  const dropped = tenant.reseeded;
  if (!dropped) return undefined;
  tenant.reseeded = undefined;
  const when = new Date(dropped.at).toISOString();
  return `299 opsapi-mock "tenant ${tenant.org} was evicted at ${when} (more than --max-tenants ${maxTenants} tenants in memory, no --state): its ${dropped.writes} write(s) were dropped and its world was seeded afresh"`;
}
