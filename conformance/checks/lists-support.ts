import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { byProvenance, label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { listSpec, readList, type ListData, type ListParams } from '../helpers.js';
import type { Level } from '../types.js';

export const CLAUSE = 'Endpoints / List and search endpoints';

/** Runs `fn` for every list operation of the check whose data can be read. */
export async function eachList(
  c: CheckContext,
  ops: OperationDef[],
  fn: (data: ListData) => Promise<void>,
): Promise<void> {
  await Promise.all(
    ops.map(async (op) => {
      const data = await readList(c, op);
      if (typeof data === 'string') return c.cannot(data);
      await fn(data);
    }),
  );
}

/** A list request: a read the list checks share (the same parameters sent by two checks cost one request). */
export function request(c: CheckContext, data: ListData, params: ListParams): Promise<Exchange> {
  return c.read(listSpec(data.op, data.path, params));
}

/** A list check and its SHOULD twin for operations the contract infers. */
export function twins(
  base: string,
  title: string,
  options: { clause?: string; filterAndSortOnly?: boolean },
  fn: (c: CheckContext, data: ListData, level: Level) => Promise<void>,
): CheckDef[] {
  const ops = listOperations().filter((op) => !options.filterAndSortOnly || op.list?.filterAndSort);
  const { documented, inferred } = byProvenance(ops);
  const make = (id: string, level: Level, scope: OperationDef[], suffix: string): CheckDef => ({
    id,
    title: `${title}${suffix}`,
    family: 'lists',
    clause: options.clause ?? CLAUSE,
    level,
    run: (c) => eachList(c, scope, (data) => fn(c, data, level)),
  });
  return [
    ...(documented.length ? [make(base, 'MUST', documented, '')] : []),
    ...(inferred.length ? [make(`${base}.inferred`, 'SHOULD', inferred, ' (operations the contract infers)')] : []),
  ];
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
