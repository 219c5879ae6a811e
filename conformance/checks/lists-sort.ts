import { expected, expectedStatus } from '../contract/decided.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { isSuccess, pageOf, problemOf, type ListData } from '../helpers.js';
import { listProfile } from '../observe/list-profile.js';
import { distinctCount, ordered, typedCompare } from '../rules/order.js';
import { CLAUSE, eachList, onEveryList, request, where } from './lists-support.js';

async function sortCheck(c: CheckContext, data: ListData, descending: boolean): Promise<void> {
  const { sortable } = await listProfile(c, data);
  if (sortable.length === 0) return c.cannot(`${label(data.op)}: the target sorts by no field`);
  await Promise.all(
    sortable.map(async (field) => {
      const sortBy = `${descending ? '-' : ''}${field.query}`;
      const ex = await request(c, data, { sortBy, pageSize: 1000 });
      const page = pageOf(ex);
      if (
        !c.expect(
          isSuccess(ex) && page !== undefined,
          where(data, `sortBy=${sortBy}`),
          ex,
          'a 2xx with a page',
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
    onEveryList(
      'lists.sort-ascending',
      'sortBy=<field> orders the results ascending, on every field the target sorts by (CreatedAt and LastModifiedAt wherever exposed)',
      (c, data) => sortCheck(c, data, false),
    ),
    onEveryList(
      'lists.sort-descending',
      'sortBy=-<field> orders the results descending, on every field the target sorts by',
      (c, data) => sortCheck(c, data, true),
    ),
    {
      id: 'lists.sort-ordinal',
      title: 'Text sorts by ordinal order, nulls first ascending, ties broken by id',
      family: 'lists',
      clause: `${CLAUSE} (sort collation and ties are not stated)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(c, listOperations(), async (data) => {
          const { sortable } = await listProfile(c, data);
          for (const field of sortable.filter((f) => f.type === 'string')) {
            for (const descending of [false, true]) {
              const sortBy = `${descending ? '-' : ''}${field.query}`;
              const ex = await request(c, data, { sortBy, pageSize: 1000 });
              const page = pageOf(ex);
              if (!isSuccess(ex) || !page) return c.cannot(`${where(data, `sortBy=${sortBy}`)} answered ${ex.status}`);
              if (distinctCount(page.results.map((i) => i[field.name])) < 2) {
                c.cannot(`${label(data.op)}: fewer than two distinct ${field.name} values`);
                continue;
              }
              c.exercised(`${label(data.op)} ${sortBy}`);
              const key = (item: Record<string, unknown>) => item[field.name];
              const hasId = page.results.every((i) => typeof i.id === 'string');
              const nullsLast = expected<'null-order'>(c.run, 'null-order', 'first') === 'last';
              const bad = page.results.findIndex((item, i) => {
                if (i === 0) return false;
                const prev = page.results[i - 1] as Record<string, unknown>;
                const a = key(prev);
                const b = key(item);
                if (a === b || (a == null && b == null)) return hasId && String(prev.id) > String(item.id);
                if (a == null) return nullsLast ? !descending : descending;
                if (b == null) return nullsLast ? descending : !descending;
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
        }),
    },
    {
      id: 'lists.sort-unknown-field',
      title: 'An unknown sort field gives a 4xx COMMON.QUERY.SORTING_PARSING_FAILED',
      family: 'lists',
      // Which condition gives SORTING_PARSING_FAILED is not stated ("Conditions behind each code beyond what its name
      // says: not shown"); a target may as well ignore a sortBy it does not support and answer the unsorted page.
      clause: `${CLAUSE}; Errors / Error code catalog (the condition of SORTING_PARSING_FAILED is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(c, listOperations(), async (data) => {
          if ((await listProfile(c, data)).sortable.length === 0)
            return c.cannot(`${label(data.op)}: the target sorts by no field`);
          const ex = await request(c, data, { sortBy: 'conformNoSuchField' });
          c.exercised(label(data.op));
          if (expected<'unknown-sort-field'>(c.run, 'unknown-sort-field', 'refused') === 'ignored') {
            c.expect(
              isSuccess(ex) && pageOf(ex) !== undefined,
              where(data, 'sortBy=conformNoSuchField'),
              ex,
              'a 2xx page (ignored, as observed)',
              String(ex.status),
            );
            return;
          }
          const code = problemOf(ex)?.code;
          c.expect(
            ex.status >= 400 && ex.status < 500 && code === 'COMMON.QUERY.SORTING_PARSING_FAILED',
            where(data, 'sortBy=conformNoSuchField'),
            ex,
            '4xx COMMON.QUERY.SORTING_PARSING_FAILED',
            `${ex.status} ${String(code)}`,
          );
        }),
    },
    {
      id: 'lists.sort-unknown-field-400',
      title: 'An unknown sort field gives exactly 400',
      family: 'lists',
      clause: `${CLAUSE} (the status of SORTING_PARSING_FAILED is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(c, listOperations(), async (data) => {
          if ((await listProfile(c, data)).sortable.length === 0)
            return c.cannot(`${label(data.op)}: the target sorts by no field`);
          const ex = await request(c, data, { sortBy: '-conformNoSuchField' });
          c.exercised(label(data.op));
          const ignored = expected<'unknown-sort-field'>(c.run, 'unknown-sort-field', 'refused') === 'ignored';
          const status = expectedStatus(c.run, 'COMMON.QUERY.SORTING_PARSING_FAILED', 400);
          c.expect(
            ignored ? isSuccess(ex) : ex.status === status,
            where(data, 'sortBy=-conformNoSuchField'),
            ex,
            ignored ? '2xx' : String(status),
            String(ex.status),
          );
        }),
    },
  ];
}
