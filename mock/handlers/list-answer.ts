import { OPERATIONS } from '../../spec/operations/index.js';
import { caseMode, isDefaultEngine } from '../lists/engine-options.js';
import {
  DEFAULT_LIST_ENGINE,
  ListCollection,
  runList,
  type ListEngineOptions,
  type ListQuery,
  type ListSource,
} from '../lists/index.js';
import type { HandlerContext, Answer, Handler } from './context.js';
import { ok } from './context.js';
import { pageKey } from '../lists/page-texts.js';

/**
 * Answers a list or search operation with the one list engine (Endpoints / List and search endpoints):
 * paging defaults and bounds, the filter language and sorting over the operation's field table.
 */
export function listAnswer<T extends { id: string }>(
  ctx: HandlerContext,
  source: ListSource<T>,
  project?: (item: T) => unknown,
): Answer {
  const list = ctx.op.list;
  if (!list) throw new Error(`${ctx.op.operationId} is not a list operation`);
  const raw = (list.parametersIn === 'body' ? (ctx.body ?? {}) : ctx.query) as Record<string, unknown>;
  const query: ListQuery = {
    pageNumber: raw.pageNumber as string | number | undefined,
    pageSize: raw.pageSize as string | number | undefined,
    ...(list.filterAndSort
      ? { filterBy: raw.filterBy as string | undefined, sortBy: raw.sortBy as string | undefined }
      : {}),
  };
  // A list page asked before, of a list unchanged since, is sent as it was written (./page-texts.ts).
  const texts = ctx.pageTexts;
  const collection = texts && source instanceof ListCollection && !project ? source : undefined;
  const key = collection && pageKey(ctx.op.operationId, caseMode(ctx.listEngine ?? DEFAULT_LIST_ENGINE), query);
  if (collection && key !== undefined) {
    const text = texts?.get(collection, key);
    if (text) return { kind: 'ok', status: 200, text };
  }
  const result = runList(source, list.fields, query, ctx.listEngine);
  if (!result.ok) return ctx.problem(result.error.code, result.error.detail, result.error.parameters);
  const page = result.value;
  const body = project ? { ...page, results: page.results.map(project) } : page;
  if (collection && key !== undefined && texts)
    return { kind: 'ok', status: 200, body, keepText: texts.keeper(collection, key) };
  return ok(200, body);
}

/**
 * The handlers with the list engine's options (`MockOptions.textCase`) handed to every list and search operation;
 * with the default options, the handlers themselves, so the default mock does no work for them per request.
 */
export function withListEngine<H extends Readonly<Record<string, Handler>>>(handlers: H, engine: ListEngineOptions): H {
  if (isDefaultEngine(engine)) return handlers;
  const out: Record<string, Handler> = { ...handlers };
  for (const op of OPERATIONS) {
    const inner = out[op.operationId];
    if (op.list && inner) out[op.operationId] = (ctx) => inner({ ...ctx, listEngine: engine });
  }
  return out as H;
}
