import type { OperationDef } from '../../spec/operations/index.js';
import type { Credential, Exchange } from '../wire/client.js';
import { listOperations } from '../contract/contract.js';
import type { CheckContext } from '../context.js';
import { listSpec, pageOf, readList } from '../helpers.js';
import { readCollection } from './read-all.js';

/**
 * Records of a tenant as the target exposes them, for the isolation checks: the items of a list in either form (a
 * page envelope or a bare array: several list shapes are not shown), known by the one field the reference names on
 * every list item, `id` (Resources / Page of results: "A list item carries ... an `id`").
 */

/** The items of a list read with a credential, or why they cannot be read. */
interface Items {
  ids: string[];
  /** The first answer, as evidence (absent when the read was shared with the lists checks). */
  first: Exchange | undefined;
}

/** The `id` of an item as text (the reference gives list items an `id` without a type). */
export function idOf(item: Record<string, unknown>): string | undefined {
  return typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : undefined;
}

/**
 * Reads a list (GET walked in either form; POST search: its first page of 1000) with a credential. Unfiltered reads
 * with the main credentials are memoised per run: the checks of both levels and the path values share them.
 */
export function readIds(
  c: CheckContext,
  op: OperationDef,
  path: string,
  auth: Credential,
  filterBy?: string,
): Promise<Items | string> {
  if (auth !== 'main' || filterBy !== undefined) return read(c, op, path, auth, filterBy);
  return c.run.memo(`isolation:ids:${op.operationId}:${path}`, async () => {
    // A page envelope the lists checks read already (helpers.ts readList, memoised per run) costs no request more.
    const shared = op.pathParams.length === 0 ? await readList(c, op) : undefined;
    if (shared !== undefined && typeof shared !== 'string')
      return { ids: shared.items.flatMap((i) => idOf(i) ?? []), first: undefined };
    return read(c, op, path, auth);
  });
}

async function read(
  c: CheckContext,
  op: OperationDef,
  path: string,
  auth: Credential,
  filterBy?: string,
): Promise<Items | string> {
  if (op.list?.parametersIn === 'body') {
    const ex = await c.send(listSpec(op, path, { pageNumber: 1, pageSize: 1000, filterBy }, auth));
    if (ex.status < 200 || ex.status >= 300) return `${op.method.toUpperCase()} ${path} answered ${ex.status}`;
    const items = pageOf(ex)?.results ?? (Array.isArray(ex.json) ? (ex.json as Record<string, unknown>[]) : undefined);
    if (!items) return `${op.method.toUpperCase()} ${path} answered neither a page envelope nor a JSON array`;
    return { ids: items.flatMap((i) => idOf(i) ?? []), first: ex };
  }
  const read = await readCollection(c.run.client, c.def.id, { path, auth, query: filterBy ? { filterBy } : {} });
  if (typeof read === 'string') return read;
  return { ids: read.items.flatMap((i) => idOf(i) ?? []), first: read.first };
}

/** The list operation whose items a path's `{id}` names: the collection path, or its `/search`. */
function parentList(op: OperationDef, param: string): OperationDef | undefined {
  if (param !== 'id') return undefined;
  const at = op.path.indexOf(`/{${param}}`);
  if (at === -1) return undefined;
  const parent = op.path.slice(0, at);
  if (parent.includes('{')) return undefined;
  return listOperations().find((o) => !o.pathParams.length && (o.path === parent || o.path === `${parent}/search`));
}

/** A value of a path parameter from the sample records (`--data` or the mock's fixtures). */
function fromData(c: CheckContext, op: OperationDef, param: string): string | undefined {
  const d = c.run.data;
  if (param === 'skuReference') return d.sku?.reference;
  if (param === 'inspectionId') return d.sku?.inspectionIds?.[0];
  if (op.path.includes('/purchaseOrders/'))
    return param === 'lineId' ? d.purchaseOrderLine?.lineId : d.purchaseOrderLine?.purchaseOrderId;
  return undefined;
}

/**
 * Path values addressing records of the main tenant: an `{id}` is the first id of its parent list read with the main
 * credentials (records the run created among them: subscriptions, notifications), other parameters come from the
 * sample records. Memoised per operation; a reason when a value cannot be found.
 */
export function addressOf(c: CheckContext, op: OperationDef): Promise<Record<string, string> | string> {
  return c.run.memo(`isolation:address:${op.operationId}`, async () => {
    const values: Record<string, string> = {};
    for (const p of op.pathParams) {
      const parent = parentList(op, p.name);
      let value: string | undefined;
      if (parent) {
        const read = await readIds(c, parent, parent.path, 'main');
        if (typeof read === 'string') return `no {${p.name}} for ${op.method.toUpperCase()} ${op.path}: ${read}`;
        value = read.ids[0];
        if (value === undefined)
          return `no {${p.name}} to address: ${parent.method.toUpperCase()} ${parent.path} is empty`;
      } else {
        value = fromData(c, op, p.name);
        if (value === undefined)
          return `no value for {${p.name}} of ${op.method.toUpperCase()} ${op.path}: pass --data (the GET /__mock/fixtures format)`;
      }
      values[p.name] = value;
    }
    return values;
  });
}
