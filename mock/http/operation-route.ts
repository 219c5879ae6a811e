import { evictionWarning } from '../store/eviction-warning.js';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../spec/errors/index.js';
import type { OperationDef } from '../../spec/operations/index.js';
import { holds } from '../auth/principal.js';
import { codedProblem, plainProblem, unauthorized, type ProblemAnswer, type RequestRef } from '../problems.js';
import type { Handler, HandlerContext } from './context.js';
import { authenticate } from './credentials.js';
import { preferredCode } from './prefer.js';
import { rateLimited } from './rate-limited.js';
import { send } from './send.js';
import { cachedSerializerCompiler } from './serializers.js';
import type { MockServices } from './services.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant the request was answered for, once authenticated (journal). */
    tenantOrg?: string;
    operationId?: string;
    parsedBody?: unknown;
  }
}

/** `{base_url}` of a request: the address the client used. */
export function baseUrlOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? `${req.hostname}`}`;
}

/** The request as `instance` names it: method and path without the query string. */
export function refOf(req: FastifyRequest): RequestRef {
  // An absolute-form target (`GET http://host/path`) names its path after the authority; `*` and other forms get a leading `/`.
  const url = req.url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return { method: req.method, path: path.startsWith('/') ? path : `/${path}` };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Registers one operation of the contract. The pipeline, in order: latency, authentication (401), rate limit
 * (429), `Prefer: code=` forcing, permission (403), path and body validation (400), then the handler.
 * One function, not a chain of Fastify `preHandler` hooks: measured with the list and 401 bench scenarios, the
 * hooks cost 3-7% more CPU per request on the 401 path (inferred: the mock's speed is a goal, docs/DESIGN.md, "The mock's goals").
 */
export function registerOperation(
  app: FastifyInstance,
  op: OperationDef,
  handler: Handler,
  services: MockServices,
  response?: Record<string, unknown>,
): void {
  const { options, store, verifier, limiter, validator, clock, pageTexts } = services;
  const url = op.path.replace(/\{(\w+)\}/g, ':$1');
  const bodySchema = op.requestBody?.schema;
  const declares400 = op.errors.some((e) => e.status === 400);

  app.route({
    method: op.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
    url,
    ...(response ? { schema: { response }, serializerCompiler: cachedSerializerCompiler } : {}),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      req.operationId = op.operationId;
      if (options.latency) {
        const { min, max } = options.latency;
        await sleep(min + Math.random() * (max - min));
      }
      const ref = refOf(req);
      const baseUrl = baseUrlOf(req);
      const problem = (code: ErrorCode, detail: string, parameters: Record<string, unknown> = {}): ProblemAnswer =>
        codedProblem(baseUrl, code, detail, ref, parameters);

      // Authentication, point 3: a request without valid authentication gets 401 with no `code`.
      const auth = await authenticate(req.headers, verifier, store, clock.now());
      if (!auth.ok) return send(reply, unauthorized(ref, auth.reason));
      const principal = auth.principal;
      const tenant = store.tenant(principal.org);
      req.tenantOrg = tenant.org;
      const evicted = evictionWarning(tenant, store.options.maxTenants);
      if (evicted) reply.header('warning', evicted);

      // Limits: a per-tenant rate limit; exceeding it returns 429 COMMON.RATE_LIMIT.EXCEEDED with `parameters: {}`.
      if (limiter) {
        const taken = limiter.take(tenant.org, clock.now());
        if (!taken.ok) return send(reply, rateLimited(baseUrl, ref, taken.retryAfterMs));
      }

      const preferred = preferredCode(op, req.headers.prefer);
      // A status the operation does not declare: a 400 without catalog code naming the declared ones (mock/http/prefer.ts).
      if (preferred.kind === 'refuse') return send(reply, plainProblem(400, preferred.detail, ref));
      const forced = preferred.kind === 'force' ? preferred.status : null;
      if (forced !== null) {
        reply.header('preference-applied', `code=${forced}`);
        if (forced === 401) return send(reply, unauthorized(ref, 'Forced by Prefer: code=401.'));
        const code = op.errors.find((e) => e.status === forced)?.codes[0];
        if (code) {
          const answer = problem(
            code,
            `Forced by Prefer: code=${forced}.`,
            code === 'COMMON.AUTH.MISSING_PERMISSIONS' && op.permission.name ? { permission: op.permission.name } : {},
          );
          return send(reply, forced === 429 ? { ...answer, headers: { 'retry-after': '1' } } : answer);
        }
      }

      // Authentication, point 4: a caller that lacks the permission gets 403 MISSING_PERMISSIONS naming it.
      const permission = op.permission.name;
      if (permission !== null && !holds(principal, permission)) {
        return send(
          reply,
          problem('COMMON.AUTH.MISSING_PERMISSIONS', `The caller lacks the permission '${permission}'.`, {
            permission,
          }),
        );
      }

      const params = req.params as Record<string, string>;
      for (const p of op.pathParams) {
        const value = params[p.name] ?? '';
        if (!Value.Check(p.schema, value)) {
          // Operations that declare no 400 answer such a parameter with the 404 they declare: it addresses nothing.
          if (!declares400)
            return send(
              reply,
              problem(
                'COMMON.ENTITY.NOT_FOUND',
                `Nothing is addressed by path parameter '${p.name}' (1 to 200 characters).`,
                { entity: p.name, id: String(value).slice(0, 200) },
              ),
            );
          return send(
            reply,
            problem('COMMON.VALIDATION.ERROR', `Path parameter '${p.name}' is invalid (1 to 200 characters).`, {
              field: p.name,
            }),
          );
        }
      }

      let body: unknown;
      if (bodySchema) {
        const raw = req.body;
        if (typeof raw !== 'string' || raw.trim() === '') {
          return send(
            reply,
            problem('COMMON.VALIDATION.ERROR', 'The request needs a JSON body (Content-Type: application/json).', {
              field: '',
            }),
          );
        }
        try {
          body = JSON.parse(raw);
        } catch (error) {
          return send(
            reply,
            problem('COMMON.VALIDATION.ERROR', `The body is not valid JSON: ${(error as Error).message}`, {
              field: '',
            }),
          );
        }
        const invalid = validator.firstError(bodySchema, body);
        if (invalid) {
          const where = invalid.field ? `Field '${invalid.field}'` : 'The body';
          return send(
            reply,
            problem('COMMON.VALIDATION.ERROR', `${where} ${invalid.message}.`, { field: invalid.field }),
          );
        }
        // JSON numbers beyond the double range (1e999) parse to Infinity, which the schema's `number` accepts but JSON cannot carry back.
        const nonFinite = Object.entries(body as Record<string, unknown>).find(
          ([, v]) => typeof v === 'number' && !Number.isFinite(v),
        );
        if (nonFinite)
          return send(
            reply,
            problem('COMMON.VALIDATION.ERROR', `Field '${nonFinite[0]}' must be a finite number.`, {
              field: nonFinite[0],
            }),
          );
        req.parsedBody = body;
      }

      const ctx: HandlerContext = {
        op,
        tenant,
        principal,
        params,
        query: req.query as Record<string, unknown>,
        body,
        ref,
        baseUrl,
        problem,
        pageTexts,
      };
      return send(reply, await handler(ctx));
    },
  });
}
