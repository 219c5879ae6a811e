import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../spec/errors/index.js';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Principal } from '../auth/principal.js';
import type { Answer, Handler, HandlerContext } from '../handlers/context.js';
import { codedProblem, type ProblemAnswer, type RequestRef } from '../problems.js';
import type { TenantState } from '../store/tenant-state.js';
import { baseUrlOf, refOf } from './request-ref.js';
import type { MockServices } from './services.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation a route serves (./operation-route.ts), for answers found before its handler runs (./unread-refusal.ts). */
    operationRoute?: OperationRoute;
  }
  interface FastifyRequest {
    /** The tenant the request was answered for, once authenticated (journal). */
    tenantOrg?: string;
    operationId?: string;
    parsedBody?: unknown;
  }
}

/** One operation as the request path serves it: its definition, its handler and the parts its steps use. */
export interface OperationRoute {
  readonly op: OperationDef;
  readonly handler: Handler;
  readonly services: MockServices;
  /** The contract's name of its JSON body's schema (the validator's key), if it takes one. */
  readonly bodySchema: string | undefined;
  /** Whether it declares a 400: a bad path parameter is its 400, else the 404 it declares (./steps/validation.ts). */
  readonly declares400: boolean;
}

/**
 * One request on its way through the request path (./request-path.ts): what the steps have learned of it so far.
 * Once every step before the handler passed it, it is the handler's context (`principal` and `tenant` are set by the
 * credentials step, `body` by validation), so no second object is built for the handler.
 */
export interface Exchange {
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
  readonly op: OperationDef;
  readonly ref: RequestRef;
  readonly baseUrl: string;
  principal: Principal | undefined;
  tenant: TenantState | undefined;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  body: unknown;
  readonly pageTexts: MockServices['pageTexts'];
  problem(code: ErrorCode, detail: string, parameters?: Record<string, unknown>): ProblemAnswer;
}

/**
 * Builds a coded problem for the request it is called on. One function shared by every exchange, reading the
 * request from `this`, so an exchange costs no closure, and a copy of it (`{ ...ctx, query }`, as list decorators
 * make) builds the problems of the copy.
 */
function problem(
  this: Pick<Exchange, 'baseUrl' | 'ref'>,
  code: ErrorCode,
  detail: string,
  parameters: Record<string, unknown> = {},
): ProblemAnswer {
  return codedProblem(this.baseUrl, code, detail, this.ref, parameters);
}

/** The exchange of a request for one operation, before any step ran (every member set, so all share one shape). */
export function openExchange(req: FastifyRequest, reply: FastifyReply, route: OperationRoute): Exchange {
  return {
    req,
    reply,
    op: route.op,
    ref: refOf(req),
    baseUrl: baseUrlOf(req),
    principal: undefined,
    tenant: undefined,
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    body: undefined,
    pageTexts: route.services.pageTexts,
    problem,
  };
}

/** The handler's view of an exchange that passed every step before it (principal and tenant set). */
export function handlerContext(x: Exchange): HandlerContext {
  return x as HandlerContext;
}

/**
 * One step of the request path: answers the request (a problem, or the handler's answer) or passes it on to the next
 * step (undefined). Asynchronous only where it waits (credentials, latency, the handler).
 */
export type RequestStep = (x: Exchange, route: OperationRoute) => Answer | undefined | Promise<Answer | undefined>;
