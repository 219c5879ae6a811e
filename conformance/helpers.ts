import { setTimeout as sleep } from 'node:timers/promises';
import { mockKeyHeaders } from '../common/mock-keys.js';
import type { OperationDef } from '../spec/operations/index.js';
import { OPERATIONS } from '../spec/operations/index.js';
import type { Credential, Exchange, RequestSpec } from './wire/client.js';
import { contract, fillPath } from './contract/contract.js';
import type { CheckContext, RunContext } from './context.js';
import { type CollectionForm, pageOf, problemOf } from './contract/bodies.js';

export { pageOf, problemOf } from './contract/bodies.js';

/**
 * A success answer: any 2xx. The reference gives no success status for most operations (lists included), so a check
 * of documented behaviour takes any 2xx; the contract's own status is judged by SHOULD checks.
 */
export const isSuccess = (ex: { status: number }): boolean => ex.status >= 200 && ex.status < 300;

/** The list parameters of a request. */
export interface ListParams {
  pageNumber?: number | string;
  pageSize?: number | string;
  filterBy?: string;
  sortBy?: string;
}

/** A list request: query string for GET lists, JSON body for POST search (Endpoints / List and search endpoints). */
export function listSpec(op: OperationDef, path: string, params: ListParams, auth: Credential = 'main'): RequestSpec {
  const method = op.method.toUpperCase() as RequestSpec['method'];
  if (op.list?.parametersIn === 'body') {
    const body: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params))
      if (v !== undefined) body[k] = typeof v === 'string' && /^\d+$/.test(v) && k.startsWith('page') ? Number(v) : v;
    return { method, path, json: body, auth };
  }
  const query: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query[k] = v;
  return { method, path, query, auth };
}

/** The identity of a list item: its `id`, or its whole content when it has none (event descriptors). */
export function identity(item: Record<string, unknown>): string {
  if (typeof item.id === 'string' || typeof item.id === 'number') return String(item.id);
  return JSON.stringify(
    Object.keys(item)
      .sort()
      .map((k) => [k, item[k]]),
  );
}

/**
 * Everything read of a list: its items (all of them when `complete`), its total, and the form the target answered
 * in: the page envelope, or a bare array (several collections' response shapes are "not shown"; a target answering
 * an array there has decided that collection is not a paged list, and the list rules do not apply to it).
 */
export interface ListData {
  op: OperationDef;
  path: string;
  form: CollectionForm;
  items: Record<string, unknown>[];
  totalCount: number;
  complete: boolean;
}

/** Pages read at most (1000 items each) to hold a list in memory. */
const MAX_READ_PAGES = 5;

/**
 * Reads a list with the main credentials, 1000 items a page, up to 5 pages (memoised per run), in whichever form the
 * target answers. Returns a reason instead when the list cannot be read (no path values, an error status, a body
 * that is neither form).
 */
export function readList(c: CheckContext, op: OperationDef): Promise<ListData | string> {
  return c.run.memo(`list:${op.operationId}`, async () => {
    const values = await pathValues(c, op);
    if (typeof values === 'string') return values;
    const path = fillPath(op, values);
    const items: Record<string, unknown>[] = [];
    let totalCount = 0;
    for (let page = 1; page <= MAX_READ_PAGES; page++) {
      const ex = await c.run.client.send('shared', listSpec(op, path, { pageNumber: page, pageSize: 1000 }));
      const ok = ex.status >= 200 && ex.status < 300;
      if (ok && page === 1 && Array.isArray(ex.json)) {
        const all = ex.json.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null);
        return { op, path, form: 'array', items: all, totalCount: all.length, complete: true };
      }
      const body = pageOf(ex);
      if (!ok || !body)
        return `${op.method.toUpperCase()} ${path} answered ${ex.status}${ok ? ' with neither a page envelope nor an array' : ''} to an unfiltered read`;
      items.push(...body.results);
      totalCount = body.totalCount;
      if (items.length >= totalCount || body.results.length === 0) break;
    }
    return { op, path, form: 'envelope', items, totalCount, complete: items.length >= totalCount };
  });
}

/** The list operation whose items a path parameter names: the collection path, or its `/search`. */
function parentList(op: OperationDef, param: string): OperationDef | undefined {
  if (param !== 'id') return undefined;
  const at = op.path.indexOf(`/{${param}}`);
  if (at === -1) return undefined;
  const parent = op.path.slice(0, at);
  if (parent.includes('{')) return undefined;
  return OPERATIONS.find((o) => o.list && !o.pathParams.length && (o.path === parent || o.path === `${parent}/search`));
}

/** A value of a path parameter from the sample records (`--data` or the mock's fixtures). */
function fromData(run: RunContext, op: OperationDef, param: string): string | undefined {
  const d = run.data;
  if (param === 'skuReference') return d.sku?.reference;
  if (param === 'inspectionId') return d.sku?.inspectionIds?.[0];
  if (param === 'errorCode')
    return (contract().document['x-error-catalog'] as { code: string }[] | undefined)?.[0]?.code;
  if (op.path.includes('/purchaseOrders/'))
    return param === 'lineId' ? d.purchaseOrderLine?.lineId : d.purchaseOrderLine?.purchaseOrderId;
  if (op.path.includes('/families/') && param === 'id') return d.deletableFamilyId;
  return undefined;
}

/**
 * Values of an operation's path parameters that address real records of the main tenant: the first item of the
 * parent list, or the sample records. Returns a reason when one cannot be found.
 */
export async function pathValues(c: CheckContext, op: OperationDef): Promise<Record<string, string> | string> {
  const values: Record<string, string> = {};
  for (const p of op.pathParams) {
    const parent = parentList(op, p.name);
    let value: string | undefined;
    if (parent) {
      const data = await readList(c, parent);
      if (typeof data === 'string') return data;
      const first = data.items.find((i) => typeof i.id === 'string');
      value = first?.id as string | undefined;
      if (value === undefined) return `no ${p.name} to address: ${parent.method.toUpperCase()} ${parent.path} is empty`;
    } else {
      value = fromData(c.run, op, p.name);
      if (value === undefined)
        return `no value for {${p.name}} of ${op.method.toUpperCase()} ${op.path}: pass --data (the GET /__mock/fixtures format)`;
    }
    values[p.name] = value;
  }
  return values;
}

/**
 * Expects a problem with a status and a code (null: no code). Records failures; returns whether it matched.
 * `statusLenient`: any 4xx is accepted for the status (the exact status is checked elsewhere at SHOULD level).
 */
export function expectProblem(
  c: CheckContext,
  ex: Exchange,
  status: number,
  code: string | null,
  what: string,
  statusLenient = false,
): boolean {
  const body = problemOf(ex);
  const statusOk = statusLenient ? ex.status >= 400 && ex.status < 500 : ex.status === status;
  if (!statusOk) {
    c.fail(
      `${what}: unexpected status`,
      ex,
      statusLenient ? `a 4xx status with code ${code}` : `${status}${code ? ` ${code}` : ''}`,
      `${ex.status}`,
    );
    return false;
  }
  if (code === null) return true;
  if (!body || body.code !== code) {
    c.fail(`${what}: wrong or missing code`, ex, code, body ? String(body.code) : 'no JSON body');
    return false;
  }
  return true;
}

/** Polls until `fn` returns a value (not undefined) or the time is up. */
export async function poll<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() >= end) return undefined;
    await sleep(everyMs);
  }
}

/** A short random suffix. */
export function nonce(): string {
  return Math.random().toString(36).slice(2, 10);
}

/**
 * Headers of a call to the mock's admin API: `X-Admin-Key` and `X-Team-Key` when the run has them (docs/DESIGN.md,
 * "Shared sandbox"). Only `/__mock/*` calls send them, so no key ever reaches the
 * operations (or a real deployment). Among the checks' helpers because a check sends them too (causing a webhook on
 * the mock), besides the run that prepares the mock.
 */
export function mockAdminHeaders(run: RunContext): Record<string, string> {
  return mockKeyHeaders(run.options);
}
