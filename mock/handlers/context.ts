import type { ErrorCode } from '../../spec/errors/index.js';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Principal } from '../auth/principal.js';
import type { ListEngineOptions } from '../lists/index.js';
import type { ProblemAnswer, RequestRef } from '../problems.js';
import type { TenantState } from '../store/tenant-state.js';
import type { PageTexts } from '../lists/page-texts.js';

/** A successful answer of a handler. */
export interface OkAnswer {
  readonly kind: 'ok';
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body already serialized (a kept list page: ./page-texts.ts); sent as is, `body` unused. */
  readonly text?: Buffer;
  /** Called with the serialized body once written, to keep it for the next identical request (./page-texts.ts). */
  readonly keepText?: (text: Buffer) => void;
}

/** What a handler returns: a success or a problem. Handlers never throw for bad input. */
export type Answer = OkAnswer | ProblemAnswer;

/** Everything a handler may use for one request. */
export interface HandlerContext {
  readonly op: OperationDef;
  readonly tenant: TenantState;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed and schema-validated JSON body (undefined when the operation takes none). */
  readonly body: unknown;
  readonly ref: RequestRef;
  /** `{base_url}` of the request, for problem `type` addresses. */
  readonly baseUrl: string;
  /** Builds a coded problem for this request. */
  problem(code: ErrorCode, detail: string, parameters?: Record<string, unknown>): ProblemAnswer;
  /** The list engine's options when the mock runs it otherwise than by default (set by `withListEngine`). */
  readonly listEngine?: ListEngineOptions;
  /** Serialized list pages kept for identical requests; absent where handlers are decorated (faults, decisions). */
  readonly pageTexts?: PageTexts | null;
}

/** One operation's behaviour. */
export type Handler = (ctx: HandlerContext) => Answer | Promise<Answer>;

/** A success answer. */
export function ok(status: number, body?: unknown, headers?: Record<string, string>): OkAnswer {
  return { kind: 'ok', status, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) };
}

/** COMMON.ENTITY.NOT_FOUND for an addressed entity (Errors / Status and code pairs: 404). */
export function notFound(ctx: HandlerContext, entity: string, id: string): ProblemAnswer {
  return ctx.problem('COMMON.ENTITY.NOT_FOUND', `${entity} '${id}' does not exist.`, { entity, id });
}
