import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Answer } from '../handlers/context.js';
import { send } from './send.js';
import { openExchange } from './exchange.js';
import { answerThrough } from './request-path.js';
import { credentials } from './steps/credentials.js';
import { rateLimit } from './steps/rate-limit.js';

/**
 * Sends a refusal found before an operation's body is read (a 413 from the declared Content-Length, a 415), after the
 * request path's own authentication and rate limit (./request-path.ts): a request with valid credentials spends a
 * token of its tenant's rate limit as every request does, and past the limit it gets the 429 (Errors, 429), not the
 * refusal. Without valid credentials the refusal stands, as before (a 413 without credentials stays a 413).
 *
 * Why: Fastify refuses such a body before any step runs, so a tenant sending refused bodies spent none of its rate
 * limit (480 bodies of 200 KB in a burst under `--rate-limit 100/1s` were all 413s) and each one still cost the mock a
 * connection and the bytes already in flight. The request is journaled for its tenant too, like its other requests.
 * Inferred: the reference neither orders these answers nor says a refused request is free.
 */
export function sendUnreadRefusal(
  req: FastifyRequest,
  reply: FastifyReply,
  refusal: Answer,
): FastifyReply | Promise<FastifyReply> {
  const route = req.routeOptions.config.operationRoute;
  if (!route) return send(reply, refusal);
  const x = openExchange(req, reply, route);
  // The path's own runner: the first of these that answers decides, the refusal when neither credentials nor the limit
  // did. A 401 of credentials is not sent: without them the refusal stands (`principal` is set only when they passed).
  const answer = answerThrough([credentials, rateLimit, () => refusal], x, route);
  const chosen = (a: Answer) => send(reply, x.principal === undefined ? refusal : a);
  return answer instanceof Promise ? answer.then(chosen) : chosen(answer);
}
