import type { FastifyReply } from 'fastify';
import type { Answer } from './context.js';

/** Writes an answer: JSON for successes, `application/problem+json` for problems (inferred), nothing for 204. */
export function send(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.kind === 'problem') return reply.type('application/problem+json').send(answer.body);
  if (answer.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
