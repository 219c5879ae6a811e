import { ALL_PERMISSIONS } from '../../spec/operations/index.js';
import type { TokenClaims } from './tokens.js';
import { ADMIN } from './principal.js';

/** Every permission the contract's operations require (one list, in spec; re-exported for the library's users). */
export { ALL_PERMISSIONS };

/** Claims of a token that may call every operation: role `App.Admin` plus every permission. */
export function adminClaims(org: string): TokenClaims {
  return { org, sub: `admin@${org}`, roles: [ADMIN], permissions: [...ALL_PERMISSIONS] };
}

/** Claims of a read-only token: the `.Read` permissions only (for 403 checks). */
export function limitedClaims(org: string): TokenClaims {
  return { org, sub: `reader@${org}`, roles: [], permissions: ALL_PERMISSIONS.filter((p) => p.endsWith('.Read')) };
}
