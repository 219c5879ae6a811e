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

export function request(c: CheckContext, data: ListData, params: ListParams): Promise<Exchange> {
  return c.send(listSpec(data.op, data.path, params));
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

export function where(data: ListData, params: string): string {
  return `${label(data.op)} ${params}`;
}
