import { webcrypto } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { textKeyedCache } from '../bounded-cache.js';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { isOrgName } from './org.js';
import type { Principal } from './principal.js';

/** Claims of the mock's access tokens (docs/DESIGN.md, "Credentials and tokens": `sub`, `org`, `permissions[]`, `roles[]`, `exp`). */
export interface TokenClaims {
  org: string;
  sub?: string;
  permissions?: string[];
  roles?: string[];
  /** The team that minted the token (docs/DESIGN.md, "Team credentials (shared sandbox)"): revoking it ends the token. */
  team?: string;
}

/** The claim naming a token's team (inferred: a private claim name, RFC 7519 section 4.3, that says whose it is). */
const TEAM_CLAIM = 'opsapi_team';

/** Whether a team still exists (a Map lookup; a replica may first ask Redis about a team it has not heard of). */
type TeamCheck = (id: string) => boolean | Promise<boolean>;

/** Default lifetime of minted tokens: 24 hours. */
const DEFAULT_TOKEN_SECONDS = 24 * 3600;

/** Clock skew tolerated on `exp` and `nbf` (seconds). */
const LEEWAY_SECONDS = 5;

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Mints an HS256 access token. `nowSeconds` is real time: expiry never follows a tenant's virtual clock. */
export async function mintToken(
  secret: string,
  claims: TokenClaims,
  expiresInSeconds = DEFAULT_TOKEN_SECONDS,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  const team = claims.team === undefined ? {} : { [TEAM_CLAIM]: claims.team };
  return new SignJWT({ org: claims.org, permissions: claims.permissions ?? [], roles: claims.roles ?? [], ...team })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub ?? `user-${claims.org}`)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + expiresInSeconds)
    .sign(key(secret));
}

function stringArray(value: unknown): string[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return value as string[];
}

/** What verifying credentials concludes: the principal they name, or why they do not (mock/http/credentials.ts too). */
export type Verdict = { ok: true; principal: Principal } | { ok: false; reason: string };

/** The refusal of a valid token whose team was revoked. */
const TEAM_REVOKED: Verdict = { ok: false, reason: 'The access token was minted with a team key that was revoked.' };

interface Cached {
  /** The verdict given for it each time it is used (one object, not one per request). */
  valid: Verdict;
  expMs: number;
  nbfMs: number;
}

/** A token refused for good, and the time (the verifying clock's) after which the refusal holds. */
interface Refusal {
  readonly reason: string;
  readonly afterMs: number;
}

/**
 * Characters of the refused tokens remembered, each counted with 200 more for its entry (inferred): ~4,000 tokens of
 * a few hundred characters, or a few dozen of the longest a header holds; ~2 MB at most either way.
 */
const REFUSED_TOKEN_CHARS = 1_000_000;

/**
 * Characters of the valid tokens cached, each counted with 200 more for its entry (inferred): the 10,000 entries of
 * the count bound at ~600 characters (a token of the mock with a few permissions), or some 490 of the longest a header
 * holds (16 KB). An entry count alone let one holder of a team key pin ~16 KB per token it minted and used once
 * (`POST /__mock/tokens` takes 200 permissions of 200 characters): 160 MB at 10,000 of them.
 */
const VALID_TOKEN_CHARS = 8_000_000;

/** How full the cache of valid tokens is (`GET /__mock/stats`, `verifiedTokens`). */
export interface TokenCacheFigures {
  readonly entries: number;
  readonly maxEntries: number;
  /** Characters of the cached tokens, each counted with 200 more for its entry. */
  readonly chars: number;
  readonly maxChars: number;
}

/**
 * Verifies access tokens: HS256 only, with the configured secret (pinned: `alg: none`, other algorithms and
 * other secrets are refused), `exp` required and honoured with a small leeway, `nbf` honoured, `org` required.
 * Verified tokens are cached (bounded) so the hot path does not recompute the HMAC for every request.
 */
export class TokenVerifier {
  /** Least recently verified first out: a client's token in use stays cached while one-off tokens come and go. */
  private readonly cache: LRUCache<string, Cached>;
  /**
   * The secret as a Web Crypto key, imported once: given the secret's bytes, jose imports a key for every
   * verification (`crypto.subtle.importKey`), about a third of the work of refusing a token no cache holds (an expired
   * or forged one, sent over and over: bench noisy-neighbour).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens refused for good (a bad signature, a malformed token or claim, an expiry: real time only moves on), with
   * the reason, so one sent over and over (a job retrying with a stale token, a flood of one forged token) costs a
   * lookup instead of a verification. Apart from the cache of valid tokens, so refused ones never push those out;
   * bounded by their characters (REFUSED_TOKEN_CHARS), least recently refused first out.
   */
  private readonly refusals = textKeyedCache<Refusal>(REFUSED_TOKEN_CHARS, 200);

  /**
   * `teamExists`: asked on every request whose token carries a team (cached tokens too), so a revoked team's tokens
   * get the plain 401 at once.
   */
  constructor(
    secret: string,
    cached: { readonly entries: number; readonly chars: number } = { entries: 10_000, chars: VALID_TOKEN_CHARS },
    private readonly teamExists: TeamCheck = () => false,
  ) {
    this.key = webcrypto.subtle.importKey('raw', key(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    // Sized up front (`max`): read on every request, where lru-cache's pre-allocated storage is its fastest. Bounded
    // by the tokens' characters too (VALID_TOKEN_CHARS); the size is computed when a token is cached, not when read.
    this.cache = new LRUCache({
      max: cached.entries,
      maxSize: cached.chars,
      sizeCalculation: (_cached, token) => token.length + 200,
    });
  }

  /** How full the cache of valid tokens is. */
  cacheFigures(): TokenCacheFigures {
    return {
      entries: this.cache.size,
      maxEntries: this.cache.max,
      chars: this.cache.calculatedSize,
      maxChars: this.cache.maxSize,
    };
  }

  /**
   * The principal of a valid token, or a reason why it is not valid: its team too must still exist. Synchronous for a
   * token verified before (or refused for good) whose team, if any, is known: every request of a client carries one,
   * and an answer without a promise costs no turn of the microtask queue.
   */
  verify(token: string, nowMs: number): Verdict | Promise<Verdict> {
    const verified = this.remembered(token, nowMs) ?? this.verifySignedClaims(token, nowMs);
    return verified instanceof Promise ? verified.then((v) => this.withTeam(v)) : this.withTeam(verified);
  }

  /** A valid verdict of a token whose team was revoked meanwhile becomes a refusal; the team check may wait (Redis). */
  private withTeam(verified: Verdict): Verdict | Promise<Verdict> {
    const team = verified.ok ? verified.principal.team : undefined;
    if (team === undefined) return verified;
    const exists = this.teamExists(team);
    return exists instanceof Promise
      ? exists.then((yes) => (yes ? verified : TEAM_REVOKED))
      : exists
        ? verified
        : TEAM_REVOKED;
  }

  /** The verdict on a token cached as valid, or refused for good, without verifying it again; undefined otherwise. */
  private remembered(token: string, nowMs: number): Verdict | undefined {
    const cached = this.cache.get(token);
    if (cached) {
      if (nowMs > cached.expMs + LEEWAY_SECONDS * 1000) return { ok: false, reason: 'The access token has expired.' };
      if (nowMs < cached.nbfMs - LEEWAY_SECONDS * 1000)
        return { ok: false, reason: 'The access token is not valid yet.' };
      return cached.valid;
    }
    // Only a token no valid one matches is looked up here: a client's valid token costs one lookup, not two.
    const refused = this.refusals.get(token);
    return refused && nowMs > refused.afterMs ? { ok: false, reason: refused.reason } : undefined;
  }

  /** Verifies the signature and claims of a token neither cached nor refused, and remembers the verdict. */
  private async verifySignedClaims(token: string, nowMs: number): Promise<Verdict> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        clockTolerance: LEEWAY_SECONDS,
        requiredClaims: ['exp', 'org'],
        currentDate: new Date(nowMs),
      });
      const org = payload.org;
      const permissions = stringArray(payload.permissions);
      const roles = stringArray(payload.roles);
      if (!isOrgName(org)) return { ok: false, reason: 'The access token has no valid org claim.' };
      if (!permissions || !roles) return { ok: false, reason: 'The access token has malformed permissions or roles.' };
      const team = payload[TEAM_CLAIM];
      if (team !== undefined && typeof team !== 'string')
        return { ok: false, reason: 'The access token has a malformed team claim.' };
      const principal: Principal = {
        org,
        subject: typeof payload.sub === 'string' ? payload.sub : 'anonymous',
        permissions: new Set(permissions),
        roles: new Set(roles),
        via: 'jwt',
        ...(team === undefined ? {} : { team }),
      };
      const valid: Verdict = { ok: true, principal };
      this.cache.set(token, { valid, expMs: (payload.exp ?? 0) * 1000, nbfMs: (payload.nbf ?? 0) * 1000 });
      return valid;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        // Remembered for the times past its expiry (and its leeway): a clock set back is asked again.
        const exp = typeof error.payload.exp === 'number' ? error.payload.exp : Number.NaN;
        const reason = 'The access token has expired.';
        if (Number.isFinite(exp)) this.refusals.set(token, { reason, afterMs: (exp + LEEWAY_SECONDS) * 1000 });
        return { ok: false, reason };
      }
      // A claim check that time may still pass (nbf) is not remembered.
      if (error instanceof joseErrors.JWTClaimValidationFailed) {
        const reason = `The access token is not valid: ${error.claim} claim check failed.`;
        if (error.claim !== 'nbf') this.refusals.set(token, { reason, afterMs: Number.NEGATIVE_INFINITY });
        return { ok: false, reason };
      }
      const reason = 'The access token is malformed or its signature is invalid.';
      this.refusals.set(token, { reason, afterMs: Number.NEGATIVE_INFINITY });
      return { ok: false, reason };
    }
  }
}
