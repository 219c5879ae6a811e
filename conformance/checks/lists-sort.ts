import { label, listOperations, sortableFields } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { pageOf, problemOf, type ListData } from '../helpers.js';
import { distinctCount, ordered, typedCompare } from '../rules/order.js';
import { CLAUSE, eachList, request, twins, where } from './lists-support.js';

async function sortCheck(c: CheckContext, data: ListData, descending: boolean): Promise<void> {
  await Promise.all(
    sortableFields(data.op).map(async (field) => {
      const sortBy = `${descending ? '-' : ''}${field.name}`;
      const ex = await request(c, data, { sortBy, pageSize: 1000 });
      const page = pageOf(ex);
      if (
        !c.expect(
          ex.status === 200 && page !== undefined,
          where(data, `sortBy=${sortBy}`),
          ex,
          '200 with a page',
          String(ex.status),
        ) ||
        !page
      )
        return;
      const values = page.results.map((item) => item[field.name]);
      if (distinctCount(values) < 2)
        return c.cannot(`${label(data.op)}: fewer than two distinct ${field.name} values to order`);
      c.exercised(`${label(data.op)} ${sortBy}`);
      c.expect(
        ordered(values, typedCompare(field), descending),
        `${where(data, `sortBy=${sortBy}`)}: results are not in ${descending ? 'descending' : 'ascending'} ${field.name} order`,
        ex,
        `${descending ? 'descending' : 'ascending'} by ${field.name}`,
        JSON.stringify(values.slice(0, 12)),
      );
    }),
  );
}

/** The sort checks: ascending and descending order, ordinal collation, and unknown sort fields. */
export function sortChecks(): CheckDef[] {
  return [
    ...twins(
      'lists.sort-ascending',
      'sortBy=<field> orders the results ascending, for every sortable field',
      { filterAndSortOnly: true },
      (c, data) => sortCheck(c, data, false),
    ),
    ...twins(
      'lists.sort-descending',
      'sortBy=-<field> orders the results descending, for every sortable field',
      { filterAndSortOnly: true },
      (c, data) => sortCheck(c, data, true),
    ),
    {
      id: 'lists.sort-ordinal',
      title: 'Text sorts by ordinal order, nulls first ascending, ties broken by id',
      family: 'lists',
      clause: `${CLAUSE} (sort collation and ties are not stated)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(
          c,
          listOperations().filter((op) => op.list?.filterAndSort),
          async (data) => {
            for (const field of sortableFields(data.op).filter((f) => f.type === 'string' || f.type === 'enum')) {
              for (const descending of [false, true]) {
                const sortBy = `${descending ? '-' : ''}${field.name}`;
                const ex = await request(c, data, { sortBy, pageSize: 1000 });
                const page = pageOf(ex);
                if (ex.status !== 200 || !page)
                  return c.cannot(`${where(data, `sortBy=${sortBy}`)} answered ${ex.status}`);
                if (distinctCount(page.results.map((i) => i[field.name])) < 2) {
                  c.cannot(`${label(data.op)}: fewer than two distinct ${field.name} values`);
                  continue;
                }
                c.exercised(`${label(data.op)} ${sortBy}`);
                const key = (item: Record<string, unknown>) => item[field.name];
                const hasId = page.results.every((i) => typeof i.id === 'string');
                const bad = page.results.findIndex((item, i) => {
                  if (i === 0) return false;
                  const prev = page.results[i - 1] as Record<string, unknown>;
                  const a = key(prev);
                  const b = key(item);
                  if (a === b || (a == null && b == null)) return hasId && String(prev.id) > String(item.id);
                  if (a == null) return descending;
                  if (b == null) return !descending;
                  return descending ? String(a) < String(b) : String(a) > String(b);
                });
                c.expect(
                  bad === -1,
                  `${where(data, `sortBy=${sortBy}`)}: not in ordinal order (nulls ${descending ? 'last' : 'first'}, ties by id)`,
                  ex,
                  'ordinal order',
                  bad === -1
                    ? ''
                    : `item ${bad}: ${JSON.stringify(key(page.results[bad - 1] ?? {}))} then ${JSON.stringify(key(page.results[bad] ?? {}))}`,
                );
              }
            }
          },
        ),
    },
    ...twins(
      'lists.sort-unknown-field',
      'An unknown sort field gives a 4xx COMMON.QUERY.SORTING_PARSING_FAILED',
      { filterAndSortOnly: true },
      async (c, data) => {
        const ex = await request(c, data, { sortBy: 'conformNoSuchField' });
        c.exercised(label(data.op));
        const code = problemOf(ex)?.code;
        c.expect(
          ex.status >= 400 && ex.status < 500 && code === 'COMMON.QUERY.SORTING_PARSING_FAILED',
          where(data, 'sortBy=conformNoSuchField'),
          ex,
          '4xx COMMON.QUERY.SORTING_PARSING_FAILED',
          `${ex.status} ${String(code)}`,
        );
      },
    ),
    {
      id: 'lists.sort-unknown-field-400',
      title: 'An unknown sort field gives exactly 400',
      family: 'lists',
      clause: `${CLAUSE} (the status of SORTING_PARSING_FAILED is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(
          c,
          listOperations().filter((op) => op.list?.filterAndSort),
          async (data) => {
            const ex = await request(c, data, { sortBy: '-conformNoSuchField' });
            c.exercised(label(data.op));
            c.expect(ex.status === 400, where(data, 'sortBy=-conformNoSuchField'), ex, '400', String(ex.status));
          },
        ),
    },
  ];
}
