import type { FastifyReply } from 'fastify';
import type { PayloadHook } from '../http/decorator.js';

/** Whether an answer is a problem: every problem of the mock carries this media type (inferred, docs/DESIGN.md, "Defaults for what the reference leaves open"). */
function isProblem(reply: FastifyReply): boolean {
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

/** A problem body of a JSON payload, or undefined. */
function problemBody(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const body = JSON.parse(payload) as unknown;
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decision point `problem-media-type` observed `application/json` (Errors / Problem body: "Errors are JSON objects";
 * the media type is not shown, the mock infers `application/problem+json`): every problem goes out with the observed
 * media type. Runs after the other decision hooks, which tell a problem by its media type. Null for the mock's own.
 */
export function problemMediaTypeHook(media: string | undefined): PayloadHook | null {
  if (!media || media === 'application/problem+json') return null;
  return async function adoptedProblemMediaType(_req, reply, payload) {
    if (reply.statusCode >= 400 && isProblem(reply)) reply.header('content-type', `${media}; charset=utf-8`);
    return payload;
  };
}

/**
 * Decision point `problem-401-type` (Errors / Problem body: the `type` of the plain 401 is "the address of the HTTP
 * semantics RFC 9110 section on 401", spelled several ways): the plain 401 (no `code`) carries the observed address.
 */
export function plain401TypeHook(address: string | undefined): PayloadHook | null {
  if (!address) return null;
  return async function adoptedPlain401Type(_req, reply, payload) {
    if (reply.statusCode !== 401) return payload;
    const body = problemBody(payload);
    if (!body || 'code' in body || typeof body.type !== 'string') return payload;
    body.type = address;
    return JSON.stringify(body);
  };
}
