import type { FastifyReply } from 'fastify';
import type { FaultName } from '../faults.js';
import type { ProblemAnswer } from '../problems.js';
import type { Answer } from './context.js';

/** Planted problem faults (`--fault`), applied to a copy of the body. */
function faulty(faults: ReadonlySet<FaultName>, answer: ProblemAnswer): { body: Record<string, unknown>; contentType: string } {
  const body: Record<string, unknown> = { ...answer.body };
  let contentType = 'application/problem+json';
  if (faults.size === 0) return { body, contentType };
  if (answer.status === 401 && faults.has('auth-401-with-code')) body.code = 'COMMON.AUTH.UNAUTHORIZED';
  if (answer.status === 401 && faults.has('auth-401-wrong-type')) body.type = `${String(body.type).split('/rfc/')[0]}/errors/COMMON.AUTH.UNAUTHORIZED`;
  if (answer.status === 403 && faults.has('forbidden-wrong-code')) {
    body.code = 'COMMON.AUTH.FORBIDDEN';
    body.type = String(body.type).replace('COMMON.AUTH.MISSING_PERMISSIONS', 'COMMON.AUTH.FORBIDDEN');
  }
  if (answer.status === 403 && faults.has('forbidden-no-permission-name')) {
    body.detail = 'You are not allowed to do this.';
    body.parameters = {};
  }
  if (answer.status === 429 && faults.has('rate-limit-no-parameters')) delete body.parameters;
  if (faults.has('instance-without-method')) body.instance = String(body.instance).replace(/^[A-Z]+ /, '');
  if (faults.has('problem-status-mismatch')) body.status = answer.status === 400 ? 422 : 400;
  if (faults.has('problem-content-type-missing')) contentType = 'text/plain; charset=utf-8';
  return { body, contentType };
}

/** Writes an answer: JSON for successes, `application/problem+json` for problems (inferred), nothing for 204. */
export function send(reply: FastifyReply, answer: Answer, faults: ReadonlySet<FaultName>): FastifyReply {
  reply.code(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.kind === 'problem') {
    const { body, contentType } = faulty(faults, answer);
    return reply.type(contentType).send(contentType.startsWith('text/') ? JSON.stringify(body) : body);
  }
  if (answer.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
