import { authChecks } from './checks/auth.js';
import { catalogChecks } from './checks/catalog.js';
import { filterChecks } from './checks/filters.js';
import { isolationChecks } from './checks/isolation.js';
import { listChecks } from './checks/lists.js';
import { permissionChecks } from './checks/permissions.js';
import { problemChecks } from './checks/problems.js';
import { rateLimitChecks } from './checks/rate-limit.js';
import { schemaChecks } from './checks/schema.js';
import { webhookChecks } from './checks/webhooks.js';
import { writeChecks } from './checks/writes.js';
import type { CheckDef } from './context.js';
import { FAMILIES } from './types.js';

/** Every check of the runner, in report order (families as in FAMILIES). Derived from the contract at each call. */
export function allChecks(): CheckDef[] {
  const checks = [
    ...authChecks(),
    ...permissionChecks(),
    ...problemChecks(),
    ...listChecks(),
    ...filterChecks(),
    ...catalogChecks(),
    ...writeChecks(),
    ...webhookChecks(),
    ...rateLimitChecks(),
    ...isolationChecks(),
    ...schemaChecks(),
  ];
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
    seen.add(check.id);
  }
  const order = new Map(FAMILIES.map((f, i) => [f.id, i]));
  return checks.sort((a, b) => (order.get(a.family) ?? 0) - (order.get(b.family) ?? 0));
}
