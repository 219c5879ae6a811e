import { createHmac, timingSafeEqual } from 'node:crypto';
import { isOrgName } from '../auth/org.js';
import { textKeyedCache } from '../bounded-cache.js';
import type { Store } from '../store/store.js';

type Headers = Record<string, string | string[] | undefined>;

/** The org of a JWT signed with the mock's own key (`orgOfSignedToken` with that key), or undefined. */
export type SignedTokenOrgs = (token: string) => string | undefined;

/** Characters of the tokens whose answer `signedTokenOrgs` keeps (inferred): ~2 MB at most, whatever the tokens. */
const TOKEN_CHARS_REMEMBERED = 1_000_000;

/**
 * `orgOfSignedToken` with its answers for the tokens asked last kept, bounded by their characters (inferred; measured
 * with bench/clients/noisy-attacker.ts's expired tokens alone): a client that keeps sending its expired token gets
 * 401 after 401, and each one computed the token's HMAC again, ~140 µs of the ~1 ms a refused request costs the
 * mock. A flood of unique forged tokens only pushes the oldest answers out.
 */
export function signedTokenOrgs(key: Buffer): SignedTokenOrgs {
  const known = textKeyedCache<{ org: string | undefined }>(TOKEN_CHARS_REMEMBERED);
  return (token) => {
    let answer = known.get(token);
    if (!answer) {
      answer = { org: orgOfSignedToken(token, key) };
      known.set(token, answer);
    }
    return answer.org;
  };
}

/** The org of a bearer JWT signed with the mock's own HS256 key, whatever its `exp` and `nbf`; undefined otherwise. */
function orgOfGenuineToken(authorization: string, orgs: SignedTokenOrgs): string | undefined {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return m?.[1] ? orgs(m[1]) : undefined;
}

/** The org of a JWT (`header.payload.signature`) signed with the mock's own HS256 key, whatever its `exp` and `nbf`. */
function orgOfSignedToken(token: string, key: Buffer): string | undefined {
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!m) return undefined;
  const [, header = '', payload = '', signature = ''] = m;
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const alg: unknown = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    const org: unknown = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { org?: unknown }).org;
    return alg === 'HS256' && isOrgName(org) ? org : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tenant a refused (401) request came from, when its credentials prove it although they were refused: a token
 * the mock itself signed that has expired (or is not valid yet), or a revoked API key of the tenant. Every
 * credential sent must name the same tenant, which must be in memory (a refused request seeds nothing).
 * Inferred: so that a client suite testing its 401 handling with an expired token exercises the 401 pair of the
 * operation (coverage) and sees the refusal in its journal; a forged or foreign credential names no tenant.
 */
export function refusedCallerOrg(headers: Headers, tokenOrgs: SignedTokenOrgs, store: Store): string | undefined {
  const { authorization, 'x-api-key': apiKey } = headers;
  if (Array.isArray(authorization) || Array.isArray(apiKey)) return undefined;
  if (authorization === undefined && apiKey === undefined) return undefined;
  const orgs = new Set<string | undefined>();
  if (authorization !== undefined) orgs.add(orgOfGenuineToken(authorization, tokenOrgs));
  // An X-Api-Key equal to the bearer token is that one credential sent twice (mock/http/credentials.ts).
  const bearer = authorization === undefined ? undefined : /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1];
  if (apiKey !== undefined && apiKey !== bearer) {
    const org = store.apiKeyOrg(apiKey);
    orgs.add(org !== undefined && store.peek(org)?.apiKeysByValue.has(apiKey) ? org : undefined);
  }
  const [org] = orgs;
  return orgs.size === 1 && org !== undefined && store.peek(org) ? org : undefined;
}
