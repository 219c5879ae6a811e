import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyRule } from '../../spec/decisions/index.js';
import type { RequestHook } from '../http/decorator.js';
import { refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';
import { unauthorized } from '../problems.js';

/** Whether a request addresses the API (`/v1`), where credentials are judged. */
const isApi = (req: FastifyRequest) => /^\/v1(\/|\?|$)/.test(req.url);

/** The bearer token of a request, when it carries one. */
function bearerOf(req: FastifyRequest): string | undefined {
  const authorization = req.raw.headers.authorization;
  return typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
}

function refuse(req: FastifyRequest, reply: FastifyReply, detail: string): FastifyReply {
  return send(reply, unauthorized(refOf(req), detail));
}

/**
 * Decision points about what an API key may do (Authentication, points 1-2: the bearer token is always sent, the key
 * "also ... in list requests"; the rest is not shown), as `onRequest` hooks answering the plain 401 before the
 * mock's own authentication (mock/http/credentials.ts), which accepts both:
 * - `api-key-alone` observed `refused`: X-Api-Key without a bearer token is not a credential;
 * - `key-repeating-bearer` observed `refused`: an X-Api-Key equal to the bearer token is looked up as a key, and
 *   a token is no key.
 * No hook for what the mock does already (`accepted`).
 */
export function keyReachHooks(alone: KeyRule | undefined, repeating: KeyRule | undefined): RequestHook[] {
  const hooks: RequestHook[] = [];
  if (alone === 'refused')
    hooks.push(async function adoptedKeyAloneRefused(req, reply) {
      if (!isApi(req) || req.raw.headers['x-api-key'] === undefined || req.raw.headers.authorization !== undefined)
        return undefined;
      return refuse(req, reply, 'An API key alone is not a credential: send Authorization: Bearer <token>.');
    });
  if (repeating === 'refused')
    hooks.push(async function adoptedRepeatedBearerRefused(req, reply) {
      const token = bearerOf(req);
      if (!isApi(req) || token === undefined || req.raw.headers['x-api-key'] !== token) return undefined;
      return refuse(req, reply, 'The API key is not valid.');
    });
  return hooks;
}
