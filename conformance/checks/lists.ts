import type { ListField } from '../../spec/lists/fields.js';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { byProvenance, label, listOperations, sortableFields } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, listSpec, pageOf, problemOf, readList, type ListData, type ListParams } from '../helpers.js';
import type { Level } from '../types.js';

const CLAUSE = 'Endpoints / List and search endpoints';

/** Runs `fn` for every list operation of the check whose data can be read. */
async function eachList(c: CheckContext, ops: OperationDef[], fn: (data: ListData) => Promise<void>): Promise<void> {
  await Promise.all(
    ops.map(async (op) => {
      const data = await readList(c, op);
      if (typeof data === 'string') return c.cannot(data);
      await fn(data);
    }),
  );
}

function request(c: CheckContext, data: ListData, params: ListParams): Promise<Exchange> {
  return c.send(listSpec(data.op, data.path, params));
}

/** A list check and its SHOULD twin for operations the contract infers. */
function twins(
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

function where(data: ListData, params: string): string {
  return `${label(data.op)} ${params}`;
}

/** Compares two values of a list field in ascending order: negative, 0, positive; undefined for null values. */
type Compare = (a: unknown, b: unknown) => number;

function typedCompare(field: ListField): Compare[] {
  switch (field.type) {
    case 'number':
      return [(a, b) => (a as number) - (b as number)];
    case 'date':
      return [(a, b) => Date.parse(String(a)) - Date.parse(String(b))];
    case 'boolean':
      return [(a, b) => Number(a) - Number(b)];
    default: {
      // Collation is not stated by the reference: ordinal, case-insensitive and locale orders are all accepted here.
      const collator = new Intl.Collator('en');
      const ordinal: Compare = (a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
      const folded: Compare = (a, b) => ordinal(String(a).toLowerCase(), String(b).toLowerCase());
      return [ordinal, folded, (a, b) => collator.compare(String(a), String(b))];
    }
  }
}

/** Whether non-null values are ordered (ascending or descending) under at least one of the comparators. */
function ordered(values: unknown[], compares: Compare[], descending: boolean): boolean {
  const present = values.filter((v) => v !== null && v !== undefined);
  return compares.some((cmp) =>
    present.every((v, i) => i === 0 || (descending ? cmp(present[i - 1], v) >= 0 : cmp(present[i - 1], v) <= 0)),
  );
}

function distinctCount(values: unknown[]): number {
  return new Set(values.filter((v) => v !== null && v !== undefined).map((v) => JSON.stringify(v))).size;
}

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

export function listChecks(): CheckDef[] {
  return [
    ...twins('lists.defaults', 'Without paging parameters a list answers page 1 of 25 items', {}, async (c, data) => {
      const ex = await request(c, data, {});
      const page = pageOf(ex);
      if (
        !c.expect(
          ex.status === 200 && page !== undefined,
          where(data, '(no parameters)'),
          ex,
          '200 with a page envelope',
          String(ex.status),
        ) ||
        !page
      )
        return;
      c.exercised(label(data.op));
      c.expect(
        page.pageNumber === 1,
        `${where(data, '(no parameters)')}: pageNumber`,
        ex,
        '1',
        String(page.pageNumber),
      );
      c.expect(page.pageSize === 25, `${where(data, '(no parameters)')}: pageSize`, ex, '25', String(page.pageSize));
      c.expect(
        page.results.length === Math.min(25, page.totalCount),
        `${where(data, '(no parameters)')}: results length`,
        ex,
        String(Math.min(25, page.totalCount)),
        String(page.results.length),
      );
    }),
    ...twins('lists.page-size-bounds', 'pageSize 1 and 1000 are accepted and honoured', {}, async (c, data) => {
      for (const size of [1, 1000]) {
        const ex = await request(c, data, { pageSize: size });
        const page = pageOf(ex);
        if (
          !c.expect(
            ex.status === 200 && page !== undefined,
            where(data, `pageSize=${size}`),
            ex,
            '200 with a page',
            String(ex.status),
          ) ||
          !page
        )
          continue;
        c.exercised(`${label(data.op)} pageSize=${size}`);
        c.expect(
          page.pageSize === size,
          `${where(data, `pageSize=${size}`)}: pageSize not honoured`,
          ex,
          String(size),
          String(page.pageSize),
        );
        c.expect(
          page.results.length === Math.min(size, page.totalCount),
          `${where(data, `pageSize=${size}`)}: results length`,
          ex,
          String(Math.min(size, page.totalCount)),
          String(page.results.length),
        );
      }
    }),
    ...twins(
      'lists.page-size-max',
      'No page holds more than 1000 items: pageSize 1001 (and 0) is rejected or clamped',
      {},
      async (c, data) => {
        for (const size of [1001, 5000, 0]) {
          const ex = await request(c, data, { pageSize: size });
          c.exercised(`${label(data.op)} pageSize=${size}`);
          if (ex.status >= 400 && ex.status < 500) continue;
          const page = pageOf(ex);
          if (
            !c.expect(
              ex.status === 200 && page !== undefined,
              where(data, `pageSize=${size}`),
              ex,
              'a 4xx, or 200 with a clamped page',
              String(ex.status),
            ) ||
            !page
          )
            continue;
          c.expect(
            page.pageSize >= 1 && page.pageSize <= 1000,
            `${where(data, `pageSize=${size}`)}: pageSize outside 1..1000 was honoured`,
            ex,
            'rejected (400) or clamped into 1..1000',
            `pageSize ${page.pageSize}`,
          );
          c.expect(
            page.results.length <= 1000,
            `${where(data, `pageSize=${size}`)}: more than 1000 items`,
            ex,
            'at most 1000 items',
            String(page.results.length),
          );
        }
      },
    ),
    {
      id: 'lists.out-of-bounds-400',
      title: 'Out-of-bounds paging parameters are rejected with 400 COMMON.VALIDATION.ERROR (or clamped)',
      family: 'lists',
      clause: `${CLAUSE} (bounds; the answer to a violation is inferred)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(c, listOperations(), async (data) => {
          for (const params of [{ pageSize: 0 }, { pageSize: 1001 }, { pageNumber: 0 }] as ListParams[]) {
            const text = Object.entries(params)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join('&');
            const ex = await request(c, data, params);
            c.exercised(`${label(data.op)} ${text}`);
            const page = pageOf(ex);
            if (ex.status === 200 && page) {
              const clamped =
                params.pageSize === 0
                  ? page.pageSize === 1
                  : params.pageSize === 1001
                    ? page.pageSize === 1000
                    : page.pageNumber === 1;
              c.expect(
                clamped,
                `${where(data, text)}: neither rejected nor clamped to the bound`,
                ex,
                '400 COMMON.VALIDATION.ERROR, or the value clamped to the bound',
                `pageNumber ${page.pageNumber}, pageSize ${page.pageSize}`,
              );
              continue;
            }
            c.expect(
              ex.status === 400 && problemOf(ex)?.code === 'COMMON.VALIDATION.ERROR',
              `${where(data, text)}`,
              ex,
              '400 COMMON.VALIDATION.ERROR',
              `${ex.status} ${String(problemOf(ex)?.code)}`,
            );
          }
        }),
    },
    ...twins(
      'lists.envelope-arithmetic',
      'totalPages = ceil(totalCount / pageSize); page lengths add up; a page past the last is empty',
      {},
      async (c, data) => {
        const total = data.totalCount;
        const pageSize = Math.max(1, Math.min(1000, Math.ceil(total / 3)));
        const expectedPages = total === 0 ? 0 : Math.ceil(total / pageSize);
        for (let n = 1; n <= Math.min(expectedPages, 4) + 1; n++) {
          const ex = await request(c, data, { pageNumber: n, pageSize });
          const page = pageOf(ex);
          const text = `pageNumber=${n}&pageSize=${pageSize}`;
          if (n > expectedPages) {
            // Past the last page: an empty page with the real totals (or a refusal).
            if (ex.status >= 400 && ex.status < 500) continue;
            if (
              !c.expect(
                ex.status === 200 && page !== undefined,
                where(data, text),
                ex,
                'an empty page or a 4xx',
                String(ex.status),
              ) ||
              !page
            )
              continue;
            c.exercised(`${label(data.op)} past the last page`);
            c.expect(
              page.results.length === 0,
              `${where(data, text)}: a page past the last one has items`,
              ex,
              '0 items',
              String(page.results.length),
            );
            c.expect(
              page.totalPages === (page.totalCount === 0 ? 0 : Math.ceil(page.totalCount / page.pageSize)),
              `${where(data, text)}: totals past the last page`,
              ex,
              'totalPages = ceil(totalCount / pageSize)',
              `totalPages ${page.totalPages}, totalCount ${page.totalCount}`,
            );
            continue;
          }
          if (
            !c.expect(
              ex.status === 200 && page !== undefined,
              where(data, text),
              ex,
              '200 with a page',
              String(ex.status),
            ) ||
            !page
          )
            continue;
          c.exercised(`${label(data.op)} ${text}`);
          const pages = page.totalCount === 0 ? 0 : Math.ceil(page.totalCount / page.pageSize);
          c.expect(
            page.totalPages === pages,
            `${where(data, text)}: totalPages does not follow from totalCount and pageSize`,
            ex,
            `ceil(${page.totalCount} / ${page.pageSize}) = ${pages}`,
            String(page.totalPages),
          );
          c.expect(
            page.pageNumber === n,
            `${where(data, text)}: pageNumber not echoed`,
            ex,
            String(n),
            String(page.pageNumber),
          );
          const expectedLength = Math.max(0, Math.min(pageSize, page.totalCount - (n - 1) * pageSize));
          c.expect(
            page.results.length === expectedLength,
            `${where(data, text)}: page length`,
            ex,
            `${expectedLength}${n === expectedPages ? ' (last page)' : ''}`,
            String(page.results.length),
          );
        }
      },
    ),
    ...twins('lists.walk-pages', 'Walking every page yields totalCount distinct items', {}, async (c, data) => {
      const maxPages = c.run.options.maxPages;
      if (Math.ceil(data.totalCount / 1000) > maxPages)
        return c.cannot(`${label(data.op)}: ${data.totalCount} items need more than ${maxPages} pages (--max-pages)`);
      if (data.totalCount === 0) return c.cannot(`${label(data.op)}: the list is empty`);
      const pageSize = Math.max(1, Math.min(1000, Math.ceil(data.totalCount / Math.min(maxPages, 8))));
      const seen = new Map<string, number>();
      let total = -1;
      let last: Exchange | undefined;
      for (let n = 1; n <= maxPages; n++) {
        const ex = await request(c, data, { pageNumber: n, pageSize });
        last = ex;
        const page = pageOf(ex);
        if (
          !c.expect(
            ex.status === 200 && page !== undefined,
            where(data, `pageNumber=${n}&pageSize=${pageSize}`),
            ex,
            '200 with a page',
            String(ex.status),
          ) ||
          !page
        )
          return;
        total = page.totalCount;
        for (const item of page.results) seen.set(identity(item), (seen.get(identity(item)) ?? 0) + 1);
        if (page.results.length === 0 || n >= page.totalPages) break;
      }
      c.exercised(label(data.op));
      const duplicates = [...seen].filter(([, k]) => k > 1).map(([id]) => id);
      c.expect(
        duplicates.length === 0,
        `${label(data.op)}: items repeated across pages`,
        last,
        'each item on one page',
        duplicates.slice(0, 5).join(', '),
      );
      c.expect(
        seen.size === total,
        `${label(data.op)}: walking the pages (pageSize ${pageSize}) gave ${seen.size} distinct items`,
        last,
        `totalCount ${total}`,
        String(seen.size),
      );
    }),
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
