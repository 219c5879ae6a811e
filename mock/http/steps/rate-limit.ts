import type { RequestStep } from '../exchange.js';
import { rateLimited } from '../rate-limited.js';

/** Limits: a per-tenant rate limit; exceeding it returns 429 COMMON.RATE_LIMIT.EXCEEDED with `parameters: {}`. */
export const rateLimit: RequestStep = (x, route) => {
  const { limiter, clock } = route.services;
  if (!limiter || !x.tenant) return undefined;
  const taken = limiter.take(x.tenant.org, clock.now());
  return taken.ok ? undefined : rateLimited(x.baseUrl, x.ref, taken.retryAfterMs);
};
