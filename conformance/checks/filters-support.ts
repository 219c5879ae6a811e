import type { Exchange } from '../client.js';
import { label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, isSuccess, listSpec, pageOf, type ListData } from '../helpers.js';
import { listProfile, type ListProfile } from '../observe/list-profile.js';
import { eachList } from './lists-support.js';

export const CLAUSE = 'Endpoints / List and search endpoints / Filter operators';
export const CODE = 'COMMON.QUERY.FILTER_PARSING_FAILED';

/** Sends a filtered list request for the whole result (up to 1000 items): a read the filter checks share. */
export function filtered(c: CheckContext, data: ListData, filterBy: string): Promise<Exchange> {
  return c.read(listSpec(data.op, data.path, { filterBy, pageSize: 1000 }));
}

/**
 * A check of a documented filter rule on every list of the target that takes `filterBy`, with the fields and
 * operators the target was observed to take (`observe/list-profile.ts`): the operators' meaning, `&&`, `||` and
 * parentheses are documented, so the rule is MUST wherever the target offers what it needs.
 */
export function onEveryFilter(
  id: string,
  title: string,
  clause: string,
  fn: (c: CheckContext, data: ListData, profile: ListProfile) => Promise<void>,
): CheckDef {
  return {
    id,
    title,
    family: 'filters',
    clause,
    level: 'MUST',
    run: (c) =>
      eachList(c, listOperations(), async (data) => {
        const profile = await listProfile(c, data);
        if (profile.filterable.length === 0) return c.cannot(`${label(data.op)}: the target filters by no field`);
        await fn(c, data, profile);
      }),
  };
}

/** The server's answer to a filter as a set of identities, or undefined when it is not a whole 200 page. */
export async function resultSet(
  c: CheckContext,
  data: ListData,
  filterBy: string,
): Promise<{ ids: Set<string>; ex: Exchange } | undefined> {
  const ex = await filtered(c, data, filterBy);
  const page = pageOf(ex);
  if (!isSuccess(ex) || !page) {
    c.fail(`${label(data.op)} filterBy=${filterBy}`, ex, 'a 2xx with a page', String(ex.status));
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
