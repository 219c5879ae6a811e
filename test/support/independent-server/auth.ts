import { jwtVerify, SignJWT } from 'jose';
import { ApiProblem } from './problems.js';

/**
 * Bearer JWTs (Authentication 1: `Authorization: Bearer <ACCESS_TOKEN>`), HS256-signed with a secret of this
 * server; claims `org`, `permissions`, `exp`. How a JWT is obtained is not shown; tests get them from the JS API.
 */
export const PERMISSIONS = {
  admin: 'App.Admin',
  stockWrite: 'Warehouse.Counts.Write',
  inspectionWrite: 'Warehouse.Skus.Write',
  // Not shown in the reference: this server's names, shaped `Domain.Resource.Access` (Authentication 4).
  purchaseOrderWrite: 'Planning.PurchaseOrders.Write',
  familyWrite: 'Items.Families.Write',
} as const;

export const ALL_PERMISSIONS: readonly string[] = Object.values(PERMISSIONS);

export interface Caller {
  org: string;
  permissions: ReadonlySet<string>;
}

export class TokenAuthority {
  /**
   * Tokens that verified, with their caller, until they expire: a token is checked once, not at every request (a
   * conformance run sends thousands with the same few tokens, and each check is a WebCrypto HMAC). Only valid tokens
   * are kept, so a forged or malformed one is checked, and refused, every time.
   */
  private readonly verified = new Map<string, { caller: Caller; exp: number }>();

  constructor(private readonly secret: Uint8Array) {}

  sign(org: string, permissions: readonly string[], lifetimeSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ org, permissions: [...permissions] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeSeconds)
      .sign(this.secret);
  }

  /** The caller of a request, or the plain 401 (Authentication 3) for missing, invalid or expired credentials. */
  async authenticate(authorization: string | undefined): Promise<Caller> {
    if (authorization === undefined || authorization.trim() === '')
      throw ApiProblem.unauthorized('no Authorization header was sent', false);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw ApiProblem.unauthorized('the Authorization header must be "Bearer <token>"', true);
    const token = match[1]!;
    const known = this.verified.get(token);
    if (known) {
      // Expired as jose judges it: `exp` at or before the current second.
      if (known.exp > Math.floor(Date.now() / 1000)) return known.caller;
      this.verified.delete(token);
      throw ApiProblem.unauthorized('the access token has expired', true);
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], requiredClaims: ['exp'] }));
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw ApiProblem.unauthorized(expired ? 'the access token has expired' : 'the access token is not valid', true);
    }
    const { org, permissions = [] } = payload;
    if (typeof org !== 'string' || org === '' || org.length > 200)
      throw ApiProblem.unauthorized('the access token names no organisation', true);
    if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string'))
      throw ApiProblem.unauthorized('the access token has malformed permissions', true);
    const caller: Caller = { org, permissions: new Set(permissions as string[]) };
    // A token with a not-before time is checked every time (none of this server's has one).
    if (payload.nbf === undefined) this.verified.set(token, { caller, exp: payload.exp as number });
    return caller;
  }
}

/** Authentication 4: 403 COMMON.AUTH.MISSING_PERMISSIONS whose detail names the missing permission. */
export function requirePermission(caller: Caller, permission: string, faults: ReadonlySet<string>): void {
  if (caller.permissions.has(permission)) return;
  const code = faults.has('forbidden-wrong-code') ? 'COMMON.AUTH.FORBIDDEN' : 'COMMON.AUTH.MISSING_PERMISSIONS';
  if (faults.has('forbidden-no-permission-name')) throw ApiProblem.coded(code, 'the caller may not do this', {});
  throw ApiProblem.coded(code, `missing permission ${permission}`, { permission });
}
