import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { listSpec, readList, type ListData, type ListParams } from '../helpers.js';

export const CLAUSE = 'Endpoints / List and search endpoints';

/**
 * Runs `fn` for every list operation whose data can be read and that the target answers with the page envelope. A
 * collection answered as a bare array is not a paged list of the target (its shape is "not shown"): the list rules
 * are not judged on it, and it is told as information (the contract's own envelope is judged by SHOULD checks).
 */
export async function eachList(
  c: CheckContext,
  ops: OperationDef[],
  fn: (data: ListData) => Promise<void>,
): Promise<void> {
  await Promise.all(
    ops.map(async (op) => {
      const data = await readList(c, op);
      if (typeof data === 'string') return c.cannot(data);
      if (data.form !== 'envelope') {
        c.inform(`${label(op)} answers a bare array, not the page envelope: the list rules do not apply to it`);
        return c.cannot(`${label(op)} is not a paged list of the target (it answers a bare array)`);
      }
      await fn(data);
    }),
  );
}

/** A list request: a read the list checks share (the same parameters sent by two checks cost one request). */
export function request(c: CheckContext, data: ListData, params: ListParams): Promise<Exchange> {
  return c.read(listSpec(data.op, data.path, params));
}

/**
 * A check of a documented list rule on every list of the target (Endpoints / List and search endpoints). Whether an
 * operation is a list is observed (it answers the page envelope), not taken from the contract, so the rule is MUST
 * wherever it applies: its level rests on the documented list rules, not on the provenance of the operation.
 */
export function onEveryList(
  id: string,
  title: string,
  fn: (c: CheckContext, data: ListData) => Promise<void>,
  clause = CLAUSE,
): CheckDef {
  return {
    id,
    title,
    family: 'lists',
    clause,
    level: 'MUST',
    run: (c) => eachList(c, listOperations(), (data) => fn(c, data)),
  };
}

/**
 * The page size that splits a list of `total` items into `pages` pages (at most 1000 a page). The envelope and walk
 * checks both read a list in three pages, so they send the same requests and share the answers; three pages still
 * give two page boundaries at which an item could be repeated or lost (inferred).
 */
export function pageSizeFor(total: number, pages = 3): number {
  return Math.max(1, Math.min(1000, Math.ceil(total / pages)));
}

export function where(data: ListData, params: string): string {
  return `${label(data.op)} ${params}`;
}
