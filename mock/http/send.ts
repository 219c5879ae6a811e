import type { FastifyReply } from 'fastify';
import type { Answer } from '../handlers/context.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes an answer: JSON for successes, `application/problem+json` for problems (inferred), nothing for 204. */
export function send(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.kind === 'problem') return reply.type('application/problem+json').send(answer.body);
  if (answer.text) return reply.type(JSON_TYPE).send(answer.text);
  if (answer.body === undefined) return reply.send();
  if (answer.keepText) {
    // Kept as the route's own serializer for this status writes it (after any preSerialization hook), so the kept
    // bytes are the ones sent.
    const keep = answer.keepText;
    const serialize = reply.getSerializationFunction(String(answer.status)) ?? JSON.stringify;
    reply.serializer((payload: unknown) => {
      const text = serialize(payload as Record<string, unknown>);
      keep(Buffer.from(text));
      return text;
    });
  }
  return reply.type(JSON_TYPE).send(answer.body);
}
