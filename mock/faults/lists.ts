import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import type { Answer, Handler, HandlerContext } from '../handlers/context.js';
import type { FaultName } from './registry.js';

/** The list parameters as the client sent them (query string or search body). */
type Params = Record<string, unknown>;

/** One planted list fault: a change of the parameters before the list runs and/or of the page after it. */
interface ListFault {
  readonly before?: (params: Params) => Params;
  readonly after?: (page: Params, sent: Params) => Params;
}

/** Each breaks one rule of Endpoints / List and search endpoints, for the check meant for it. */
const LIST_FAULTS: Partial<Record<FaultName, ListFault>> = {
  'page-size-default-20': {
    before: (p) => (p.pageSize === undefined || p.pageSize === '' ? { ...p, pageSize: 20 } : p),
  },
  'page-size-1001-accepted': {
    // The page is cut at the maximum, but the envelope says the size asked for.
    before: (p) => (Number(p.pageSize) > 1000 ? { ...p, pageSize: 1000 } : p),
    after: (page, sent) => (Number(sent.pageSize) > 1000 ? { ...page, pageSize: Number(sent.pageSize) } : page),
  },
  'contains-as-equals': {
    before: (p) =>
      typeof p.filterBy === 'string' ? { ...p, filterBy: p.filterBy.replace(/\[contains\]/gi, '[Equals]') } : p,
  },
  'sort-descending-ignored': {
    before: (p) =>
      typeof p.sortBy === 'string'
        ? {
            ...p,
            sortBy: p.sortBy
              .split(',')
              .map((s) => s.trim().replace(/^-/, ''))
              .join(','),
          }
        : p,
  },
  'total-pages-off-by-one': { after: (page) => ({ ...page, totalPages: Number(page.totalPages) + 1 }) },
};

/** `filter-unknown-column-accepted`: whether an answer is the refusal of a filter naming an unknown column. */
function unknownColumn(answer: Answer): boolean {
  return (
    answer.kind === 'problem' &&
    answer.body.code === 'COMMON.QUERY.FILTER_PARSING_FAILED' &&
    String(answer.body.detail).startsWith('Unknown filter field')
  );
}

/** The context with other list parameters, where the operation takes them (query string or body). */
function withParams(ctx: HandlerContext, op: OperationDef, params: Params): HandlerContext {
  return op.list?.parametersIn === 'body' ? { ...ctx, body: params } : { ...ctx, query: params };
}

/** A list handler with the planted list faults applied around it. */
function listWrapper(
  op: OperationDef,
  faults: readonly ListFault[],
  ignoreUnknownColumn: boolean,
): (inner: Handler) => Handler {
  return (inner) => async (ctx) => {
    const sent = ((op.list?.parametersIn === 'body' ? ctx.body : ctx.query) ?? {}) as Params;
    const params = faults.reduce((p, f) => (f.before ? f.before(p) : p), sent);
    let answer = await inner(withParams(ctx, op, params));
    // The list runs again without the filter, as if the unknown column had not been named.
    if (ignoreUnknownColumn && unknownColumn(answer))
      answer = await inner(withParams(ctx, op, { ...params, filterBy: undefined }));
    if (answer.kind !== 'ok' || answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null)
      return answer;
    const page = faults.reduce((p, f) => (f.after ? f.after(p, sent) : p), answer.body as Params);
    return { ...answer, body: page };
  };
}

/**
 * The handlers with the planted list faults among `faults` wrapped around every list and search operation of the
 * contract (those with `list`), so the list engine and `listAnswer` stay faithful; others unchanged.
 */
export function withListFaults<H extends Readonly<Record<string, Handler>>>(
  handlers: H,
  faults: ReadonlySet<FaultName>,
): H {
  const planted = Object.entries(LIST_FAULTS)
    .filter(([name]) => faults.has(name as FaultName))
    .map(([, fault]) => fault);
  const ignoreUnknownColumn = faults.has('filter-unknown-column-accepted');
  if (planted.length === 0 && !ignoreUnknownColumn) return handlers;
  const out: Record<string, Handler> = { ...handlers };
  for (const op of OPERATIONS) {
    const inner = out[op.operationId];
    if (op.list && inner) out[op.operationId] = listWrapper(op, planted, ignoreUnknownColumn)(inner);
  }
  return out as H;
}
