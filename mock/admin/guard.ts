import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify';
import { ADMIN_KEY_CHALLENGE, ADMIN_KEY_HEADER } from '../../common/admin-key.js';
import { TEAM_KEY_CHALLENGE, TEAM_KEY_HEADER } from '../../common/team-key.js';
import type { KeyThrottle } from '../auth/key-throttle.js';
import { baseUrlOf, refOf } from '../http/request-ref.js';
import { rateLimited } from '../http/rate-limited.js';
import { send } from '../http/send.js';
import { codedProblem, unauthorized, type ProblemAnswer, type RequestRef } from '../problems.js';
import type { TeamRegistry } from '../teams/registry.js';
import { accessOf, OPERATOR, type AdminCaller, type RouteAccess } from './access.js';
import { ADMIN_KEY_SCHEME, TEAM_KEY_SCHEME, withProblem, type ProblemDoc } from './doc-parts.js';
import { sourceOf } from './source.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the access check found calling an admin route (./access.ts). */
    adminCaller: AdminCaller | null;
  }
}

/** The one admin route a key never guards: a load balancer or a harness probes it without secrets (docs/DESIGN.md, "Shared sandbox"). */
export const ADMIN_HEALTH_URL = '/__mock/health';

/** A digest of fixed length, so keys of any length compare in constant time (`timingSafeEqual` wants equal lengths). */
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The admin key's refusal: the plain 401 of the mock (Authentication, point 3: no `code`) with the `AdminKey`
 * challenge, so a client tells it from a refused tenant credential (common/admin-key.ts).
 */
function adminKeyRefused(ref: RequestRef, sent: boolean, access: RouteAccess): ProblemAnswer {
  const detail = sent
    ? 'The admin API refused the key in X-Admin-Key.'
    : access === 'operator'
      ? "The admin API needs the mock's admin key in the X-Admin-Key header."
      : "The admin API needs the mock's admin key in the X-Admin-Key header, or a team key in X-Team-Key.";
  return { ...unauthorized(ref, detail), headers: { 'www-authenticate': ADMIN_KEY_CHALLENGE } };
}

/** A tenant-scoped route called with neither key nor the tenant's own App.Admin bearer token, on a keyed mock. */
export function notTenantAdmin(ref: RequestRef): ProblemAnswer {
  const detail =
    "The admin API needs the mock's admin key in X-Admin-Key, a team key in X-Team-Key, or the tenant's own App.Admin bearer token.";
  return { ...unauthorized(ref, detail), headers: { 'www-authenticate': ADMIN_KEY_CHALLENGE } };
}

/** A team key the mock does not know (never made, or revoked): the plain 401 with the `TeamKey` challenge. */
function teamKeyRefused(ref: RequestRef): ProblemAnswer {
  return {
    ...unauthorized(ref, 'The admin API refused the key in X-Team-Key (unknown or revoked).'),
    headers: { 'www-authenticate': TEAM_KEY_CHALLENGE },
  };
}

/** Whether a request carries the admin key in `X-Admin-Key` (compared in constant time: SHA-256 of both). */
export function adminKeyHolder(key: string): (req: FastifyRequest) => boolean {
  const expected = digest(key);
  return (req) => {
    const given = req.headers[ADMIN_KEY_HEADER];
    return typeof given === 'string' && timingSafeEqual(digest(given), expected);
  };
}

const KEY_REFUSED: ProblemDoc = [
  401,
  'The plain 401 with the challenge `AdminKey` (no key, or not the key the mock was started with) or `TeamKey` (an unknown or revoked team key).',
];
const THROTTLED: ProblemDoc = [
  429,
  '`COMMON.RATE_LIMIT.EXCEEDED`: too many refused keys from this source; `Retry-After` says when to try again.',
];
const TEAM_REFUSED: ProblemDoc = [
  403,
  "`COMMON.AUTH.FORBIDDEN`: the route is the operator's, or the team key does not reach the tenant.",
];

/**
 * A guarded route's documentation (a copy: route schemas may be shared by mocks with and without a key): who may call
 * it, as alternatives of its `security`. An operator route wants the admin key; a team route the admin key or a team
 * key; a tenant route either key beside the tenant's credentials, or the tenant's credentials alone (an App.Admin
 * token). Its 401, 403 and 429 say the key's refusals too.
 */
function keyedSchema(schema: FastifySchema, access: RouteAccess): FastifySchema {
  const scheme = (names: object) => Object.fromEntries(Object.keys(names).map((name) => [name, [] as string[]]));
  const adminKey = scheme(ADMIN_KEY_SCHEME);
  const teamKey = scheme(TEAM_KEY_SCHEME);
  const own = (schema.security ?? []) as Record<string, string[]>[];
  const joined = (key: Record<string, string[]>) =>
    own.length === 0 ? [key] : own.map((alternative) => ({ ...key, ...alternative }));
  const security =
    access === 'operator'
      ? joined(adminKey)
      : access === 'team'
        ? [...joined(adminKey), ...joined(teamKey)]
        : [...joined(adminKey), ...joined(teamKey), ...own.filter((a) => 'JWTApiKey' in a && !('ApiKey' in a))];
  let response = withProblem((schema.response ?? {}) as Record<number, unknown>, KEY_REFUSED);
  response = withProblem(response, THROTTLED);
  if (access !== 'operator') response = withProblem(response, TEAM_REFUSED);
  return { ...schema, security, response };
}

/** What the access check needs: the admin key (null: none), the teams, the throttle and where a request comes from. */
interface AccessParts {
  readonly adminKey: string | null;
  readonly teams: TeamRegistry;
  readonly throttle: KeyThrottle;
  /** `--trust-proxy`: the source of a request is the last address of `X-Forwarded-For`. */
  readonly trustProxy: boolean;
  readonly now: () => number;
}

/**
 * The access check of every `/__mock/*` route registered on `app` from here on, wherever (so a route added later cannot
 * be left out): an `onRequest` hook, first of the route's own, that finds who calls (./access.ts, `AdminCaller`) and
 * refuses what the route's class does not allow. It runs before the body is read, so a stranger learns nothing from
 * 413, 415 or 400 answers. Keys are compared by SHA-256 (the admin key in constant time). A refused key counts
 * against its source, and a source over its refusals is answered 429 without its key being read (no guess checked).
 * With `--admin-key`, each guarded route's documentation says who may call it.
 */
export function guardAdminRoutes(app: FastifyInstance, parts: AccessParts): void {
  const { adminKey, teams, throttle } = parts;
  const holdsKey = adminKey === null ? () => true : adminKeyHolder(adminKey);
  const refuse = (_req: FastifyRequest, reply: FastifyReply, answer: ProblemAnswer, source: string) => {
    throttle.failed(source, parts.now());
    return send(reply, answer);
  };
  const check = (access: RouteAccess) => async (req: FastifyRequest, reply: FastifyReply) => {
    const adminKeySent = req.headers[ADMIN_KEY_HEADER];
    const teamKeySent = req.headers[TEAM_KEY_HEADER];
    const keyed = adminKey !== null;
    if ((keyed && adminKeySent !== undefined) || teamKeySent !== undefined) {
      const source = sourceOf(req, parts.trustProxy);
      const waitMs = throttle.waitMs(source, parts.now());
      if (waitMs > 0) return send(reply, throttled(req, waitMs));
      if (keyed && adminKeySent !== undefined) {
        if (!holdsKey(req)) return refuse(req, reply, adminKeyRefused(refOf(req), true, access), source);
        req.adminCaller = OPERATOR;
        return undefined;
      }
      const team = typeof teamKeySent === 'string' ? await teams.findByKey(teamKeySent) : undefined;
      if (!team) return refuse(req, reply, teamKeyRefused(refOf(req)), source);
      if (access === 'operator')
        return send(reply, forbidden(req, "This admin route is the operator's: a team key does not reach it."));
      req.adminCaller = { kind: 'team', team };
      return undefined;
    }
    if (!keyed) req.adminCaller = OPERATOR;
    // A bearer token may be the tenant's own App.Admin one (judged with the tenant, ./context.ts); nothing else is.
    else if (access === 'tenant' && req.headers.authorization !== undefined) req.adminCaller = { kind: 'tenant-admin' };
    else return send(reply, adminKeyRefused(refOf(req), false, access));
    return undefined;
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/__mock/')) return;
    const method = [route.method].flat()[0] ?? 'GET';
    const access = accessOf(method, route.url);
    if (access === 'open') return;
    // First of the route's own hooks: nothing of the route runs for a caller it does not allow.
    route.onRequest = [check(access) as onRequestHookHandler, ...[route.onRequest ?? []].flat()];
    // And the admin API's document says so (@fastify/swagger reads the route schema when it builds the document).
    if (route.schema && adminKey !== null) route.schema = keyedSchema(route.schema, access);
  });
}

/** The 429 of a source over its refused keys (inferred: the code of a rate limit, Limits). */
function throttled(req: FastifyRequest, waitMs: number): ProblemAnswer {
  return rateLimited(baseUrlOf(req), refOf(req), waitMs, 'Too many refused keys from this address');
}

/**
 * The 403 of a team outside its reach (inferred): the caller proved who it is, so not a 401; the same answer whether
 * or not the org exists, so nothing is told of other teams' tenants.
 */
export function forbidden(req: FastifyRequest, detail: string): ProblemAnswer {
  return codedProblem(baseUrlOf(req), 'COMMON.AUTH.FORBIDDEN', detail, refOf(req), {});
}
