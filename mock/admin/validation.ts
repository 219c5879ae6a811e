import type { TSchema } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codedProblem } from '../problems.js';
import { baseUrlOf, refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `detail` of a 400 for each invalid field of an admin route's body or query (`''`: the whole of it). */
    fieldDetails?: Readonly<Record<string, string>>;
  }
}

/**
 * A body, query or path schema of an admin route with the `detail` each invalid field of it gets (`''`: the body or
 * query as a whole). Inferred throughout: the reference does not know the admin API. Objects stay open (unknown
 * members are ignored, as they always were); only what the handlers read is constrained. The route hands `details`
 * to `config.fieldDetails`, where adminErrorHandler finds them.
 */
export interface Described<S extends TSchema> {
  readonly schema: S;
  readonly details: Readonly<Record<string, string>>;
}

/** The detail of a JSON body that is no object, for every admin body. */
export const BODY_NOT_OBJECT = 'The body must be a JSON object.';

/**
 * The 400 every invalid admin body or query gets: COMMON.VALIDATION.ERROR with `parameters.field` (inferred: the
 * admin API answers like the operations of the contract, Errors / Problem body).
 */
export function invalid(req: FastifyRequest, reply: FastifyReply, detail: string, field: string): FastifyReply {
  return send(reply, codedProblem(baseUrlOf(req), 'COMMON.VALIDATION.ERROR', detail, refOf(req), { field }));
}

/**
 * Deepest nesting of a JSON body below each of its top-level members: a limit of the parser, not of one route, like
 * System.Text.Json's `MaxDepth` of 64 (inferred). A stored value (event `data`) must stay serialisable in lists, the
 * journal and the state file, and no JSON Schema keyword bounds depth, so the schemas cannot say it.
 */
const MAX_MEMBER_DEPTH = 64;

/** Whether a JSON value nests deeper than `max` levels (iterative: the value may be arbitrarily deep). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The member of a parsed body that nests too deep (`''`: the body, when it is no object), or null. */
function tooDeep(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  if (Array.isArray(body)) return nestsDeeperThan(body, MAX_MEMBER_DEPTH + 1) ? '' : null;
  for (const [member, value] of Object.entries(body)) if (nestsDeeperThan(value, MAX_MEMBER_DEPTH)) return member;
  return null;
}

/**
 * A `preValidation` hook: the body, kept as text by the app's one JSON content-type parser (so the operations
 * authenticate before they parse), parsed into the value the route's schema validates. No body is `{}`. A body
 * nesting deeper than MAX_MEMBER_DEPTH is refused here, naming the member.
 */
export async function parseJsonBody(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const raw = req.body;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    req.body = {};
    return undefined;
  }
  if (typeof raw !== 'string') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw) as unknown;
  } catch (error) {
    return invalid(req, reply, `The body is not valid JSON: ${(error as Error).message}`, '');
  }
  const deep = tooDeep(body);
  if (deep !== null)
    return invalid(
      req,
      reply,
      `${deep || 'The body'} must not nest deeper than ${MAX_MEMBER_DEPTH + (deep ? 0 : 1)} levels.`,
      deep,
    );
  req.body = body;
  return undefined;
}

/** The top-level member a JSON pointer (`/permissions/0`) starts at: the field a problem names (`''`: the root). */
function fieldOf(instancePath: string): string {
  const first = instancePath.split('/')[1] ?? '';
  return first.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The error handler of the admin plugin: a schema validation error becomes the 400 naming the first invalid
 * field, with the route's detail for it; anything else goes on to the app's error handler (413, 415, 500).
 */
export function adminErrorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const first = error.validation?.[0];
  if (!first) throw error;
  const field = fieldOf(first.instancePath);
  const detail =
    req.routeOptions.config.fieldDetails?.[field] ?? `${field || 'The body'} ${first.message ?? 'is not valid'}.`;
  return invalid(req, reply, detail, field);
}
