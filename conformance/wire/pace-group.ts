import type { RequestSpec } from './client.js';

/**
 * The run's tokens of tenants other than the main one. Named here rather than taken from the run's credentials
 * (`context.ts`), so the wire imports nothing of the run it serves.
 */
interface PacedTokens {
  readonly other?: string | undefined;
  readonly rateLimit?: string | undefined;
}

/**
 * The tenant whose rate limit a request counts against (Limits: the limit is per tenant), for the pacer; undefined
 * for requests that are not paced: the rate-limit probe (it does not honour 429: reaching the limit is its purpose),
 * the mock's admin API (not an operation of the API) and requests without credentials (no tenant to count against).
 * Tokens the run does not know (forged, or minted without a permission) count against the main tenant: the
 * conservative choice.
 */
export function paceGroupOf(credentials: PacedTokens): (spec: RequestSpec) => string | undefined {
  return (spec) => {
    if (spec.honour429 === false || spec.path.startsWith('/__mock/')) return undefined;
    const credential = spec.auth ?? 'main';
    if (credential === 'none') return undefined;
    const bearer = typeof credential === 'object' && 'bearer' in credential ? credential.bearer : undefined;
    if (credential === 'other' || (bearer !== undefined && bearer === credentials.other)) return 'other';
    if (bearer !== undefined && bearer === credentials.rateLimit) return 'rate-limit';
    return 'main';
  };
}
