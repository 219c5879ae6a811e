import type { FastifyReply } from 'fastify';
import type { PayloadHook } from '../http/decorator.js';

/** Whether an answer is a problem: every problem of the mock carries this media type (inferred, DESIGN). */
export function isProblem(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('application/problem+json');
}

/**
 * Decision points `code-status:<CODE>`: the observed HTTP status of each catalog code whose status the reference
 * does not show (Errors / Status and code pairs: "Status codes of all other error codes: not shown"), as one `onSend`
 * hook that sends a problem of that code with that status, its body's `status` following (Errors / Problem body:
 * `status` is the HTTP status). Null when no status differs from the contract's: the mock then has no such hook.
 */
export function codeStatusHook(statuses: ReadonlyMap<string, number>): PayloadHook | null {
  if (statuses.size === 0) return null;
  return async function adoptedCodeStatus(_req, reply, payload) {
    if (typeof payload !== 'string' || reply.statusCode < 400 || !isProblem(reply)) return payload;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(payload) as Record<string, unknown>;
    } catch {
      return payload;
    }
    const status = typeof body.code === 'string' ? statuses.get(body.code) : undefined;
    if (status === undefined || (status === reply.statusCode && body.status === status)) return payload;
    reply.code(status);
    body.status = status;
    return JSON.stringify(body);
  };
}
