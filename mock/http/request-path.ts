import type { Answer } from '../handlers/context.js';
import { plainProblem } from '../problems.js';
import type { Exchange, OperationRoute, RequestStep } from './exchange.js';
import { clientChecks } from './steps/client-checks.js';
import { credentials } from './steps/credentials.js';
import { handle } from './steps/handler.js';
import { latency } from './steps/latency.js';
import { permission } from './steps/permission.js';
import { preference } from './steps/preference.js';
import { rateLimit } from './steps/rate-limit.js';
import { validation } from './steps/validation.js';

/**
 * The faithful request path of every operation, in order: latency, authentication (401), the 429s client checks
 * inject (profile certify: none without a run), rate limit (429),
 * `Prefer: code=` forcing, permission (403), path and body validation (400), then the handler. The first step that
 * answers ends it. Steps are plain function calls, not Fastify `preHandler` hooks: measured with the list and 401
 * bench scenarios, hooks cost 3-7% more CPU per request on the 401 path (inferred: the mock's speed is a goal,
 * docs/DESIGN.md, "The mock's goals"). Variants of the mock (planted faults, adopted decisions, replicas) decorate
 * the handlers and the shell from mock/server.ts; no step knows they exist.
 */
export const FAITHFUL_PATH: readonly RequestStep[] = [
  latency,
  credentials,
  clientChecks,
  rateLimit,
  preference,
  permission,
  validation,
  handle,
];

/**
 * Runs the steps, from `from` on, until one answers. Synchronous while every step answers without waiting (a request
 * whose token was verified before and whose handler does not wait: no promise at all); from the first step that waits,
 * the rest runs when it is done.
 */
export function answerThrough(
  path: readonly RequestStep[],
  x: Exchange,
  route: OperationRoute,
  from = 0,
): Answer | Promise<Answer> {
  for (let i = from; i < path.length; i++) {
    const outcome = (path[i] as RequestStep)(x, route);
    if (outcome instanceof Promise) return outcome.then((answer) => answer ?? answerThrough(path, x, route, i + 1));
    if (outcome !== undefined) return outcome;
  }
  // The handler, the last step, always answers: a path without one is a bug of the mock, told as one.
  return plainProblem(500, 'No step of the request path answered.', x.ref);
}
