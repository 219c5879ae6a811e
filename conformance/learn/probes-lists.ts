import { INFERRED_DEFAULT_ORDER, type LearnedListField } from '../../spec/decisions/index.js';
import { collectionForm, contractListFields } from '../../spec/decisions/schema-shape.js';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import { fillPath } from '../contract/contract.js';
import { isSuccess, pageOf, pathValues, problemOf } from '../helpers.js';
import type { ListProfile } from '../observe/list-profile.js';
import { readCollection } from '../observe/read-all.js';
import { filteredLists, ids, list, plainLists, profiled, type Probe } from './probe.js';

/**
 * The list rules a deployment decides (Endpoints / List and search endpoints: "which fields each endpoint supports
 * and which operators each field supports: not shown"; the order without `sortBy`, what an unknown sort field gets
 * and where nulls sort are not stated either), and the reads that show the records of every readable operation.
 */

/**
 * A list's table as a decision file records it: each field the target filters or sorts by, under the name it takes.
 * An operator the probes could not try (no value in the data to try it with) keeps the contract's answer; one they
 * tried is as observed, and so is sorting, where the items hold two values to order. A field whose values are all
 * null (so untyped) keeps the contract's entry.
 */
function learnedTable(op: OperationDef, profile: ListProfile, items: Record<string, unknown>[]): LearnedListField[] {
  const contract = contractListFields(op);
  const out: LearnedListField[] = [];
  for (const f of profile.fields) {
    const declared = contract.find((c) => c.name.toLowerCase() === f.name.toLowerCase());
    const untried = (declared?.operators ?? []).filter((o) => !f.operators.includes(o) && !f.refused.includes(o));
    const operators = [...f.operators, ...untried];
    // Fewer than two values cannot show an order: sorting by the field is as the contract says.
    const values = new Set(items.map((i) => JSON.stringify(i[f.name] ?? null)));
    const sortable = values.size < 2 ? (declared?.sortable ?? false) : f.sortable;
    if (operators.length === 0 && !sortable) continue;
    out.push({ name: f.name, query: f.query, type: f.type, operators, sortable });
  }
  const members = new Set(items.flatMap((i) => Object.keys(i)));
  for (const c of contract)
    if (members.has(c.name) && !profile.fields.some((f) => f.name === c.name)) out.push({ ...c });
  return out;
}

/** Every list: read whole, its fields' support probed (`list-fields:<op>`); its form is scanned from the reads. */
const fields: Probe = {
  name: 'list fields',
  kind: 'read',
  points: () => OPERATIONS.filter((o) => o.list).map((o) => `list-fields:${o.operationId}`),
  async run(p) {
    await Promise.all(
      OPERATIONS.filter((o) => o.list).map(async (op) => {
        const read = await profiled(p, op);
        const id = `list-fields:${op.operationId}`;
        if (typeof read === 'string') return p.seen.cannot(id, read);
        if (read.data.items.length === 0) return p.seen.cannot(id, `${op.operationId} has no items to filter or sort`);
        p.seen.record(id, learnedTable(op, read.profile, read.data.items));
      }),
    );
  },
};

/** The order of each list without `sortBy`: the first sortable field (either direction) that gives the same order. */
const defaultOrder: Probe = {
  name: 'default order',
  kind: 'read',
  points: () => filteredLists().map((o) => `default-order:${o.operationId}`),
  async run(p) {
    await Promise.all(
      filteredLists().map(async (op) => {
        const id = `default-order:${op.operationId}`;
        const read = await profiled(p, op);
        if (typeof read === 'string') return p.seen.cannot(id, read);
        const base = await list(p, op, { pageSize: 50 });
        const order = ids(base);
        if (base.status !== 200 || order.length < 2)
          return p.seen.cannot(id, `${op.operationId} has fewer than two items to order`);
        const names = read.profile.sortable.map((f) => f.query);
        const first = names.find((n) => n.toLowerCase() === INFERRED_DEFAULT_ORDER);
        const candidates = [...(first ? [first] : []), ...names].flatMap((n) => [n, `-${n}`]);
        for (const sortBy of [...new Set(candidates)]) {
          const sorted = await list(p, op, { pageSize: 50, sortBy });
          if (sorted.status === 200 && JSON.stringify(ids(sorted)) === JSON.stringify(order))
            return p.seen.record(id, sortBy, base);
        }
        p.seen.record(id, 'none', base);
      }),
    );
  },
};

/** Where nulls come in an ascending sort: a sortable field of some list with nulls and values, sorted. */
const nullOrder: Probe = {
  name: 'null order',
  kind: 'read',
  points: () => ['null-order'],
  async run(p) {
    for (const op of filteredLists()) {
      const read = await profiled(p, op);
      if (typeof read === 'string' || !read.data.complete || read.data.items.length > 1000) continue;
      for (const field of read.profile.sortable) {
        const values = read.data.items.map((i) => i[field.name]);
        const nulls = values.filter((v) => v === null || v === undefined).length;
        if (nulls === 0 || nulls === values.length) continue;
        const ex = await list(p, op, { sortBy: field.query, pageSize: 1000 });
        const results = pageOf(ex)?.results;
        if (!isSuccess(ex) || !results || results.length !== values.length) continue;
        const isNull = (i: Record<string, unknown> | undefined) => i !== undefined && i[field.name] == null;
        if (isNull(results[0]) && !isNull(results.at(-1))) return p.seen.record('null-order', 'first', ex);
        if (isNull(results.at(-1)) && !isNull(results[0])) return p.seen.record('null-order', 'last', ex);
      }
    }
    p.seen.cannot('null-order', 'no sortable field of a list holds both null values and values');
  },
};

/** A sortBy naming no field of a list: refused (a 4xx, its code's status scanned) or ignored (a 2xx page). */
const unknownSort: Probe = {
  name: 'unknown sort field',
  kind: 'read',
  points: () => ['unknown-sort-field', 'code-status:COMMON.QUERY.SORTING_PARSING_FAILED'],
  async run(p) {
    for (const op of filteredLists()) {
      const read = await profiled(p, op);
      if (typeof read === 'string' || read.profile.sortable.length === 0) continue;
      const ex = await list(p, op, { sortBy: 'opsapiLearnNoSuchField' });
      await list(p, op, { sortBy: '-opsapiLearnNoSuchField' });
      if (ex.status >= 400 && ex.status < 500) return p.seen.record('unknown-sort-field', 'refused', ex);
      if (isSuccess(ex) && pageOf(ex)) return p.seen.record('unknown-sort-field', 'ignored', ex);
    }
    p.seen.cannot('unknown-sort-field', 'no list sorts by a field');
  },
};

/** Paging out of bounds (Limits: pageSize 1..1000, pageNumber >= 1): the status of the refusal is scanned. */
const pageBounds: Probe = {
  name: 'paging bounds',
  kind: 'read',
  points: () => ['code-status:COMMON.VALIDATION.ERROR'],
  async run(p) {
    const op = plainLists().find((o) => o.method === 'get') as OperationDef;
    await Promise.all([
      list(p, op, { pageSize: 0 }),
      list(p, op, { pageSize: 1001 }),
      list(p, op, { pageNumber: 0 }),
      p.send({ method: 'GET', path: '/v1/errors/OPSAPI.LEARN.NO_SUCH_CODE' }),
    ]);
    if (!p.seen.has('code-status:COMMON.VALIDATION.ERROR'))
      p.seen.cannot('code-status:COMMON.VALIDATION.ERROR', 'out-of-bounds paging was not refused with a code');
  },
};

/**
 * The reads that are not lists: the tenant, the event versions, and an operation addressed by a record of its parent
 * list (a notification read by id). Their records and statuses are scanned.
 */
const reads: Probe = {
  name: 'reads',
  kind: 'read',
  points: () => ['record-fields:getTenantSelf', 'record-fields:getWebhookNotification', 'list-form:listEventVersions'],
  async run(p) {
    for (const op of OPERATIONS.filter((o) => o.method === 'get' && !o.list)) {
      if (op.operationId === 'getError') continue;
      if (op.pathParams.length === 0) {
        // A collection the contract answers as a bare array may be a page envelope there: read in both forms.
        if (collectionForm(op)) await readCollection(p.run.client, 'learn', { path: op.path });
        else await p.send({ method: 'GET', path: op.path });
        continue;
      }
      const values = await pathValues(p.check, op);
      if (typeof values === 'string') {
        p.seen.cannot(`record-fields:${op.operationId}`, values);
        continue;
      }
      const ex = await p.send({ method: 'GET', path: fillPath(op, values) });
      if (!isSuccess(ex))
        p.seen.cannot(
          `record-fields:${op.operationId}`,
          `GET ${ex.path} answered ${ex.status} (${problemOf(ex)?.code})`,
        );
    }
  },
};

export const LIST_PROBES: readonly Probe[] = [fields, defaultOrder, nullOrder, unknownSort, pageBounds, reads];
