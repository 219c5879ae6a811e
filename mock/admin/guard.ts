import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ADMIN_KEY_CHALLENGE, ADMIN_KEY_HEADER } from '../../common/admin-key.js';
import { unauthorized, type ProblemAnswer, type RequestRef } from '../problems.js';
import { refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';

/** The one admin route a key never guards: a load balancer or a harness probes it without secrets (docs/DESIGN.md, "Shared sandbox"). */
export const ADMIN_HEALTH_URL = '/__mock/health';

/** A digest of fixed length, so keys of any length compare in constant time (`timingSafeEqual` wants equal lengths). */
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The admin key's refusal: the plain 401 of the mock (Authentication, point 3: no `code`) with the `AdminKey`
 * challenge, so a client tells it from a refused tenant credential (common/admin-key.ts).
 */
export function adminKeyRefused(ref: RequestRef, sent: boolean): ProblemAnswer {
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

/**
 * Guards every `/__mock/*` route registered on `app` from here on, wherever (so a route added later cannot be left
 * open), except health: an `onRequest` hook that answers the 401 unless `X-Admin-Key` carries `key`. It runs before
 * the body is read, so a stranger learns nothing from 413, 415 or 400 answers. The documents of the admin API
 * (`/__mock/openapi.json`) are guarded too: the rule has one exception, health, so no admin path is open by oversight,
 * and the document names every route a stranger would try (inferred). Compared in constant time: SHA-256 of both.
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
  });
}
