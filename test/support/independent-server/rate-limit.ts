import { ApiProblem } from './problems.js';
import type { Tenant } from './tenants.js';

/**
 * A fixed window per tenant (Limits: "a per-tenant rate limit exists"; its numbers, window and delay header are
 * not shown, so they are this server's choices). Each window starts with the first request after the previous one
 * ended.
 */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 1200, windowMs: 10_000 };

/** Milliseconds until the window resets, sent with every 429. */
const RESET_HEADER = 'X-RateLimit-Reset-After-Ms';

/** Counts one request of the tenant; throws 429 COMMON.RATE_LIMIT.EXCEEDED once the window is used up. */
export function countRequest(
  tenant: Tenant,
  rule: RateLimit | null,
  faults: ReadonlySet<string>,
  now = Date.now(),
): void {
  if (rule === null) return;
  const window = tenant.window;
  if (now - window.startedAt >= rule.windowMs) {
    window.startedAt = now;
    window.count = 0;
  }
  window.count += 1;
  if (window.count <= rule.limit) return;
  const waitMs = Math.max(1, window.startedAt + rule.windowMs - now);
  const parameters = faults.has('rate-limit-no-parameters') ? undefined : {};
  const problem = ApiProblem.coded(
    'COMMON.RATE_LIMIT.EXCEEDED',
    `more than ${rule.limit} requests in ${rule.windowMs} ms; retry in ${waitMs} ms`,
    parameters,
  );
  problem.headers[RESET_HEADER] = String(waitMs);
  throw problem;
}
