import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProblemAnswer } from '../problems.js';
import { send } from './send.js';

/** An `onSend` hook: sees, and may replace, the serialised body of an answer. */
export type PayloadHook = (req: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * What the composition root (mock/server.ts) may add to the faithful HTTP shell to build a variant of the mock,
 * without the shell knowing which variant: hooks that see every answer.
 */
export interface AppDecorator {
  readonly onSend: readonly PayloadHook[];
}

/** Adds the decorator's hooks to the root instance; called before any route or plugin, so all of them inherit them. */
export function decorateApp(app: FastifyInstance, decorator: AppDecorator | undefined): void {
  for (const hook of decorator?.onSend ?? []) app.addHook('onSend', hook);
}

/**
 * Sends a problem from Fastify's `frameworkErrors` (errors of the router itself). Fastify runs no hook for those
 * replies, so the decorator's `onSend` hooks are run here on the serialised body; without a decorator this is `send`.
 */
export async function sendFrameworkProblem(
  req: FastifyRequest,
  reply: FastifyReply,
  answer: ProblemAnswer,
  decorator: AppDecorator | undefined,
): Promise<FastifyReply> {
  const hooks = decorator?.onSend ?? [];
  if (hooks.length === 0) return send(reply, answer);
  reply.code(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  // The very header `send` ends with once Fastify has serialised the body.
  reply.type('application/problem+json; charset=utf-8');
  let payload: unknown = JSON.stringify(answer.body);
  try {
    for (const hook of hooks) payload = await hook(req, reply, payload);
  } catch {
    // A failing hook must not leave the request unanswered: the undecorated problem goes out.
    return send(reply, answer);
  }
  return reply.send(payload);
}
