import type { Principal } from '../auth/principal.js';
import type { TokenVerifier, Verdict } from '../auth/tokens.js';
import type { Store } from '../store/store.js';

/** Outcome of reading a request's credentials: a token's verdict, or the same for an API key. */
export type Authentication = Verdict;

/**
 * Whether `X-Api-Key` merely repeats the bearer token of the same request. Inferred (Authentication, points 1-2):
 * the contract lists `JWTApiKey` and `ApiKey` as alternatives, and clients generated from it send their one configured
 * credential in every header an operation lists; `@hey-api/openapi-ts` with `auth: () => token` sends
 * `Authorization: Bearer <t>` and `X-Api-Key: <t>` (hey-api/hey-api#3195). That is one credential sent twice, not a
 * second one, so it is not looked up as a key. Safe: the token itself is verified; nothing unverified is trusted.
 */
function repeatsBearer(apiKeyHeader: string | undefined, bearerToken: string | undefined): boolean {
  return apiKeyHeader !== undefined && bearerToken !== undefined && apiKeyHeader === bearerToken;
}

/**
 * Authentication (Authentication, points 1-3): `Authorization: Bearer <JWT>` and/or `X-Api-Key`.
 * Inferred (docs/DESIGN.md, "Credentials and tokens"): an API key alone acts with the tenant and permissions of its creator; when both headers
 * come, both must be valid and of the same tenant, except that an `X-Api-Key` equal to the bearer token is the
 * same credential sent twice (see `repeatsBearer`). Any other key, present but invalid, is the plain 401.
 */
export function authenticate(
  headers: Record<string, string | string[] | undefined>,
  verifier: TokenVerifier,
  store: Store,
  nowMs: number,
): Authentication | Promise<Authentication> {
  const authorization = headers.authorization;
  const apiKeyHeader = headers['x-api-key'];
  if (Array.isArray(authorization) || Array.isArray(apiKeyHeader))
    return { ok: false, reason: 'Credentials must be sent once.' };
  if (authorization === undefined && apiKeyHeader === undefined)
    return { ok: false, reason: 'The request has no credentials: send Authorization: Bearer <token> or X-Api-Key.' };
  if (authorization === undefined) return withApiKey(undefined, undefined, apiKeyHeader, store);
  const m = /^Bearer[ ]+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i.exec(authorization);
  const token = m?.[1];
  if (!token) return { ok: false, reason: 'The Authorization header must be "Bearer <JWT>".' };
  // A token verified before is judged without a promise (mock/auth/tokens.ts): most requests of a client.
  const verified = verifier.verify(token, nowMs);
  return verified instanceof Promise
    ? verified.then((v) => withApiKey(v, token, apiKeyHeader, store))
    : withApiKey(verified, token, apiKeyHeader, store);
}

/** The outcome once the bearer token (if any) is judged: the `X-Api-Key` (if any) looked up and matched with it. */
function withApiKey(
  verified: Authentication | undefined,
  bearerToken: string | undefined,
  apiKeyHeader: string | undefined,
  store: Store,
): Authentication {
  if (verified && !verified.ok) return verified;
  const fromToken = verified?.principal;
  let fromKey: Principal | undefined;
  if (apiKeyHeader !== undefined && !repeatsBearer(apiKeyHeader, bearerToken)) {
    const org = store.apiKeyOrg(apiKeyHeader);
    // A persisted tenant evicted from memory is reloaded: its keys stay valid (mock/store/tenant-loader.ts).
    const tenant = org === undefined ? undefined : store.existing(org);
    const id = tenant?.apiKeysByValue.get(apiKeyHeader);
    const record = id === undefined ? undefined : tenant?.apiKeys.get(id);
    if (!tenant || !record) return { ok: false, reason: 'The API key is not valid.' };
    if (!record.apiKey.isActive) return { ok: false, reason: 'The API key is not active.' };
    fromKey = {
      org: tenant.org,
      subject: record.subject,
      permissions: new Set(record.permissions),
      roles: new Set(record.roles),
      via: 'apiKey',
      apiKeyId: record.apiKey.id,
    };
  }

  if (fromToken && fromKey && fromToken.org !== fromKey.org)
    return { ok: false, reason: 'The access token and the API key belong to different tenants.' };
  // The token's own verdict when it came (its principal acts), else the key's.
  if (verified) return verified;
  return fromKey ? { ok: true, principal: fromKey } : { ok: false, reason: 'The request is not authenticated.' };
}
