import { runOf } from '../../client-checks/tenants.js';
import type { RequestStep } from '../exchange.js';
import { rateLimited } from '../rate-limited.js';

/**
 * Client checks under the profile certify (docs/DESIGN.md, "Client certification"): the requests the run's plan
 * picks (one in every 5 to 9, at most 20) are answered with the rate limiter's own 429 (Limits; Errors / Status and
 * code pairs: "the caller retries after the indicated delay") and the run's delay, before the rate limit, so they
 * spend no token. A tenant without a run costs one lookup.
 */
export const clientChecks: RequestStep = (x) => {
  const run = x.tenant ? runOf(x.tenant) : undefined;
  const delayMs = run?.inject429(x.req.headers.prefer !== undefined);
  if (delayMs === undefined) return undefined;
  x.req.clientCheckInjected = true;
  return rateLimited(x.baseUrl, x.ref, delayMs);
};
