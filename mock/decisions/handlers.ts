import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import type { Handler, HandlerContext } from '../handlers/context.js';

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

/** The sortable field of a list a name means (names match without case, as the list engine matches them). */
export function sortableField(op: OperationDef, name: string): string | undefined {
  const wanted = name.replace(/^-/, '').trim().toLowerCase();
  return op.list?.fields.find((f) => f.sortable && f.name.toLowerCase() === wanted)?.name;
}

/**
 * Decision point `unknown-sort-field` observed `ignored` (Errors / Error code catalog: the condition of
 * SORTING_PARSING_FAILED is not stated): the segments of `sortBy` that name no sortable field are dropped before the
 * list engine sees them, so such a field is ignored instead of refused; nothing left means the default order.
 */
function ignoreUnknownSort(op: OperationDef): Wrap {
  const inBody = op.list?.parametersIn === 'body';
  return (inner) => (ctx: HandlerContext) => {
    const sent = ((inBody ? ctx.body : ctx.query) ?? {}) as Params;
    if (typeof sent.sortBy !== 'string' || noOrder(sent.sortBy)) return inner(ctx);
    const kept = sent.sortBy
      .split(',')
      .filter((segment) => sortableField(op, segment) !== undefined)
      .join(',');
    if (kept === sent.sortBy) return inner(ctx);
    const { sortBy: _dropped, ...rest } = sent;
    const params = kept === '' ? rest : { ...rest, sortBy: kept };
    return inner(inBody ? { ...ctx, body: params } : { ...ctx, query: params });
  };
}

/** What the adopted handlers change, by operationId (or for every list). */
interface AdoptedHandlerDecisions {
  successStatuses: ReadonlyMap<string, number>;
  defaultOrders: ReadonlyMap<string, string>;
  ignoreUnknownSort: boolean;
}

/**
 * The handlers with the adopted success statuses, default orders and unknown sort fields wrapped around their
 * operations; others, and all of them when nothing is adopted, unchanged.
 */
export function withAdoptedHandlers<H extends Readonly<Record<string, Handler>>>(
  handlers: H,
  { successStatuses, defaultOrders, ignoreUnknownSort: ignoring }: AdoptedHandlerDecisions,
): H {
  if (successStatuses.size === 0 && defaultOrders.size === 0 && !ignoring) return handlers;
  const out: Record<string, Handler> = { ...handlers };
  for (const op of OPERATIONS) {
    let handler = out[op.operationId];
    if (!handler) continue;
    const order = defaultOrders.get(op.operationId);
    if (order !== undefined && op.list) handler = defaultOrder(op, order)(handler);
    if (ignoring && op.list?.filterAndSort) handler = ignoreUnknownSort(op)(handler);
    const status = successStatuses.get(op.operationId);
    if (status !== undefined) handler = successStatus(op, status)(handler);
    out[op.operationId] = handler;
  }
  return out as H;
}
