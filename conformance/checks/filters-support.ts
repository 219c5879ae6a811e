import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { byProvenance, filterableFields, label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, listSpec, pageOf, readList, type ListData } from '../helpers.js';
import type { Level } from '../types.js';

export const CLAUSE = 'Endpoints / List and search endpoints / Filter operators';
export const CODE = 'COMMON.QUERY.FILTER_PARSING_FAILED';

/** Sends a filtered list request for the whole result (up to 1000 items): a read the filter checks share. */
export function filtered(c: CheckContext, data: ListData, filterBy: string): Promise<Exchange> {
  return c.read(listSpec(data.op, data.path, { filterBy, pageSize: 1000 }));
}

/** Every operation with filters, split by provenance into a MUST check and a SHOULD twin. */
export function twins(
  base: string,
  title: string,
  clause: string,
  fn: (c: CheckContext, data: ListData, level: Level) => Promise<void>,
): CheckDef[] {
  const ops = listOperations().filter((op) => filterableFields(op).length > 0);
  const { documented, inferred } = byProvenance(ops);
  const make = (id: string, level: Level, scope: OperationDef[], suffix: string): CheckDef => ({
    id,
    title: `${title}${suffix}`,
    family: 'filters',
    clause,
    level,
    run: (c) =>
      Promise.all(
        scope.map(async (op) => {
          const data = await readList(c, op);
          if (typeof data === 'string') return c.cannot(data);
          await fn(c, data, level);
        }),
      ).then(() => undefined),
  });
  return [
    ...(documented.length ? [make(base, 'MUST', documented, '')] : []),
    ...(inferred.length ? [make(`${base}.inferred`, 'SHOULD', inferred, ' (operations the contract infers)')] : []),
  ];
}

/** The server's answer to a filter as a set of identities, or undefined when it is not a whole 200 page. */
export async function resultSet(
  c: CheckContext,
  data: ListData,
  filterBy: string,
): Promise<{ ids: Set<string>; ex: Exchange } | undefined> {
  const ex = await filtered(c, data, filterBy);
  const page = pageOf(ex);
  if (ex.status !== 200 || !page) {
    c.fail(`${label(data.op)} filterBy=${filterBy}`, ex, '200 with a page', String(ex.status));
    return undefined;
  }
  if (page.totalCount > 1000) {
    c.cannot(`${label(data.op)} filterBy=${filterBy}: more than 1000 results`);
    return undefined;
  }
  return { ids: new Set(page.results.map(identity)), ex };
}

export const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b]);
export const intersection = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));
export const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
