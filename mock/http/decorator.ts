import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProblemAnswer } from '../problems.js';
import { send } from './send.js';

/** An `onSend` hook: sees, and may replace, the serialised body of an answer. */
export type PayloadHook = (req: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/** An `onRequest` hook: sees every request before it is routed to its handler; may answer it (returns the reply). */
export type RequestHook = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** An `onResponse` hook: runs once the answer was sent (or the request ended without one). */
export type ResponseHook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * What the composition root (mock/server.ts) may add to the faithful HTTP shell to build a variant of the mock,
 * without the shell knowing which variant: hooks that see every request and every answer.
 */
export interface AppDecorator {
  readonly onSend: readonly PayloadHook[];
  readonly onRequest?: readonly RequestHook[];
  readonly onResponse?: readonly ResponseHook[];
  /** Runs when the client goes away before the answer (Fastify's `onRequestAbort`). */
  readonly onRequestAbort?: readonly ((req: FastifyRequest) => Promise<void>)[];
}

/** Adds the decorator's hooks to the root instance; called before any route or plugin, so all of them inherit them. */
export function decorateApp(app: FastifyInstance, decorator: AppDecorator | undefined): void {
  for (const hook of decorator?.onRequest ?? []) app.addHook('onRequest', hook);
  for (const hook of decorator?.onSend ?? []) app.addHook('onSend', hook);
  for (const hook of decorator?.onResponse ?? []) app.addHook('onResponse', hook);
  for (const hook of decorator?.onRequestAbort ?? []) app.addHook('onRequestAbort', hook);
}

/** One decorator doing what each given one does, in their order (hooks of the first run first); none: undefined. */
export function composeDecorators(...decorators: (AppDecorator | undefined)[]): AppDecorator | undefined {
  const given = decorators.filter((d): d is AppDecorator => d !== undefined);
  if (given.length <= 1) return given[0];
  return {
    onRequest: given.flatMap((d) => d.onRequest ?? []),
    onSend: given.flatMap((d) => d.onSend),
    onResponse: given.flatMap((d) => d.onResponse ?? []),
    onRequestAbort: given.flatMap((d) => d.onRequestAbort ?? []),
  };
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
