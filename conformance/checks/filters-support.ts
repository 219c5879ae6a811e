import type { Exchange } from '../wire/client.js';
import { label, listOperations } from '../contract/contract.js';
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

/** A filter's answer read afresh (not the run's shared answer), as identities, or undefined when not a whole page. */
async function freshSet(c: CheckContext, data: ListData, filterBy: string) {
  const ex = await c.send(listSpec(data.op, data.path, { filterBy, pageSize: 1000 }));
  const page = pageOf(ex);
  return isSuccess(ex) && page && page.totalCount <= 1000
    ? { ids: new Set(page.results.map(identity)), ex }
    : undefined;
}

/**
 * Reads a combination of conditions and what it must select, computed from the answers to its parts, as one snapshot
 * of the list. When they disagree, the parts and the combination are read again afresh: a part answered differently
 * the second time means the list changed while it was read (a notification's status moves on as its deliveries
 * complete), which the run cannot judge and never counts against the target (`changed`); otherwise the fresh answers
 * are judged.
 */
export async function combined(
  c: CheckContext,
  data: ListData,
  parts: readonly { text: string; ids: Set<string> }[],
  text: string,
  want: (sets: Set<string>[]) => Set<string>,
): Promise<{ ids: Set<string>; want: Set<string>; ex: Exchange } | 'changed' | undefined> {
  const got = await resultSet(c, data, text);
  if (!got) return undefined;
  const first = want(parts.map((p) => p.ids));
  if (same(got.ids, first)) return { ...got, want: first };
  const again = await Promise.all(parts.map((p) => freshSet(c, data, p.text)));
  if (again.some((a, i) => !a || !same(a.ids, (parts[i] as { ids: Set<string> }).ids))) return 'changed';
  const retry = await freshSet(c, data, text);
  return retry ? { ...retry, want: first } : undefined;
}

/** Judges one combination `combined` read: a list that changed is not judged; else it selects what its parts select. */
export function judgeCombination(
  c: CheckContext,
  data: ListData,
  got: Awaited<ReturnType<typeof combined>>,
  what: string,
  failure: string,
): void {
  if (got === 'changed') {
    c.cannot(`${label(data.op)}: the list changed while ${what} was read`);
    return;
  }
  if (!got) return;
  c.exercised(`${label(data.op)} ${what}`);
  c.expect(
    same(got.ids, got.want),
    `${label(data.op)}: ${failure}`,
    got.ex,
    `${got.want.size} items`,
    `${got.ids.size} items`,
  );
}
