import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import type { Handler, HandlerContext } from '../http/context.js';

/** A decorator of one operation's handler. */
type Wrap = (inner: Handler) => Handler;

/** Statuses that carry no body (RFC 9110, sections 15.3.5 and 15.3.6). */
const BODYLESS = new Set([204, 205]);

/**
 * Decision point `success-status:<operationId>` (Endpoints: "Success status code: not shown" and the like): the
 * operation's successes answered with the observed status instead of the inferred one, the body dropped for a
 * status that carries none. Problems are untouched.
 */
function successStatus(op: OperationDef, status: number): Wrap {
  return (inner) => async (ctx) => {
    const answer = await inner(ctx);
    if (answer.kind !== 'ok' || answer.status !== op.success.status) return answer;
    const { body: _dropped, ...rest } = answer;
    return BODYLESS.has(status) ? { ...rest, status } : { ...answer, status };
  };
}

/** The list parameters as the client sent them (query string or search body), as `mock/faults/lists.ts` reads them. */
type Params = Record<string, unknown>;

/** Whether `sortBy` asks for no order: absent, null, or empty text (the list engine's default order, sort.ts). */
function noOrder(sortBy: unknown): boolean {
  return sortBy === undefined || sortBy === null || (typeof sortBy === 'string' && sortBy.trim() === '');
}

/**
 * Decision point `default-order:<operationId>` (Endpoints / List and search endpoints: `sortBy` default "none"; the
 * order without it is not shown): a list asked for no order is run with the observed `sortBy` expression instead of
 * the inferred `id` ascending. An order the client asks for is untouched.
 */
function defaultOrder(op: OperationDef, order: string): Wrap {
  const inBody = op.list?.parametersIn === 'body';
  return (inner) => (ctx: HandlerContext) => {
    const sent = ((inBody ? ctx.body : ctx.query) ?? {}) as Params;
    if (!noOrder(sent.sortBy)) return inner(ctx);
    const params = { ...sent, sortBy: order };
    return inner(inBody ? { ...ctx, body: params } : { ...ctx, query: params });
  };
}

/**
 * The handlers with the adopted success statuses and default orders wrapped around their operations (each map by
 * operationId); others, and all of them when nothing is adopted, unchanged.
 */
export function withAdoptedHandlers<H extends Readonly<Record<string, Handler>>>(
  handlers: H,
  successStatuses: ReadonlyMap<string, number>,
  defaultOrders: ReadonlyMap<string, string>,
): H {
  if (successStatuses.size === 0 && defaultOrders.size === 0) return handlers;
  const out: Record<string, Handler> = { ...handlers };
  for (const op of OPERATIONS) {
    let handler = out[op.operationId];
    if (!handler) continue;
    const order = defaultOrders.get(op.operationId);
    if (order !== undefined && op.list) handler = defaultOrder(op, order)(handler);
    const status = successStatuses.get(op.operationId);
    if (status !== undefined) handler = successStatus(op, status)(handler);
    out[op.operationId] = handler;
  }
  return out as H;
}
