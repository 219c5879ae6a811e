import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify';
import { ADMIN_KEY_CHALLENGE, ADMIN_KEY_HEADER } from '../../common/admin-key.js';
import { unauthorized, type ProblemAnswer, type RequestRef } from '../problems.js';
import { refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';
import { ADMIN_KEY_SCHEME, withProblem, type ProblemDoc } from './doc-parts.js';

/** The one admin route a key never guards: a load balancer or a harness probes it without secrets (docs/DESIGN.md, "Shared sandbox"). */
export const ADMIN_HEALTH_URL = '/__mock/health';

/** A digest of fixed length, so keys of any length compare in constant time (`timingSafeEqual` wants equal lengths). */
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The admin key's refusal: the plain 401 of the mock (Authentication, point 3: no `code`) with the `AdminKey`
 * challenge, so a client tells it from a refused tenant credential (common/admin-key.ts).
 */
function adminKeyRefused(ref: RequestRef, sent: boolean): ProblemAnswer {
  const detail = sent
    ? 'The admin API refused the key in X-Admin-Key.'
    : "The admin API needs the mock's admin key in the X-Admin-Key header.";
  return { ...unauthorized(ref, detail), headers: { 'www-authenticate': ADMIN_KEY_CHALLENGE } };
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
  'The plain 401 with the challenge `AdminKey`: no `X-Admin-Key`, or not the key the mock was started with.',
];

/**
 * A guarded route's documentation (a copy: route schemas may be shared by mocks with and without a key): the key joins
 * each alternative of its `security` (none becomes the key alone), and its 401 says the key's refusal too.
 */
function keyedSchema(schema: FastifySchema): FastifySchema {
  const key = Object.fromEntries(Object.keys(ADMIN_KEY_SCHEME).map((name) => [name, [] as string[]]));
  const security = schema.security ?? [];
  return {
    ...schema,
    security: security.length === 0 ? [key] : security.map((alternative) => ({ ...key, ...alternative })),
    response: withProblem((schema.response ?? {}) as Record<number, unknown>, KEY_REFUSED),
  };
}

/**
 * Guards every `/__mock/*` route registered on `app` from here on, wherever (so a route added later cannot be left
 * open), except health: an `onRequest` hook that answers the 401 unless `X-Admin-Key` carries `key`. It runs before
 * the body is read, so a stranger learns nothing from 413, 415 or 400 answers. The documents of the admin API
 * (`/__mock/openapi.json`) are guarded too: the rule has one exception, health, so no admin path is open by oversight,
 * and the document names every route a stranger would try (inferred). Compared in constant time: SHA-256 of both.
 * Each guarded route's documentation asks for the key (`security`) and declares its 401.
 */
export function guardAdminRoutes(app: FastifyInstance, key: string): void {
  const holdsKey = adminKeyHolder(key);
  const check = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const given = req.headers[ADMIN_KEY_HEADER];
    if (holdsKey(req)) return undefined;
    return send(reply, adminKeyRefused(refOf(req), given !== undefined));
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/__mock/') || route.url === ADMIN_HEALTH_URL) return;
    // First of the route's own hooks: nothing of the route runs for a caller without the key.
    route.onRequest = [check as onRequestHookHandler, ...[route.onRequest ?? []].flat()];
    // And the admin API's document says so (@fastify/swagger reads the route schema when it builds the document).
    if (route.schema) route.schema = keyedSchema(route.schema);
  });
}
