import { expectedStatus } from '../contract/decided.js';
import type { Exchange } from '../wire/client.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckDef } from '../context.js';
import { identity, isSuccess, pageOf, problemOf, type ListParams } from '../helpers.js';
import { CLAUSE, eachList, onEveryList, pageSizeFor, request, where } from './lists-support.js';

/** The paging checks: defaults, page-size bounds, envelope arithmetic, and walking every page. */
export function pagingChecks(): CheckDef[] {
  return [
    onEveryList('lists.defaults', 'Without paging parameters a list answers page 1 of 25 items', async (c, data) => {
      const ex = await request(c, data, {});
      const page = pageOf(ex);
      if (
        !c.expect(
          isSuccess(ex) && page !== undefined,
          where(data, '(no parameters)'),
          ex,
          'a 2xx with a page envelope',
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
    onEveryList('lists.page-size-bounds', 'pageSize 1 and 1000 are accepted and honoured', async (c, data) => {
      for (const size of [1, 1000]) {
        const ex = await request(c, data, { pageSize: size });
        const page = pageOf(ex);
        if (
          !c.expect(
            isSuccess(ex) && page !== undefined,
            where(data, `pageSize=${size}`),
            ex,
            'a 2xx with a page',
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
    onEveryList(
      'lists.page-size-max',
      'No page holds more than 1000 items: pageSize 1001 (and 0) is rejected or clamped',
      async (c, data) => {
        for (const size of [1001, 5000, 0]) {
          const ex = await request(c, data, { pageSize: size });
          c.exercised(`${label(data.op)} pageSize=${size}`);
          if (ex.status >= 400 && ex.status < 500) continue;
          const page = pageOf(ex);
          if (
            !c.expect(
              isSuccess(ex) && page !== undefined,
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
            if (isSuccess(ex) && page) {
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
            const status = expectedStatus(c.run, 'COMMON.VALIDATION.ERROR', 400);
            c.expect(
              ex.status === status && problemOf(ex)?.code === 'COMMON.VALIDATION.ERROR',
              `${where(data, text)}`,
              ex,
              `${status} COMMON.VALIDATION.ERROR`,
              `${ex.status} ${String(problemOf(ex)?.code)}`,
            );
          }
        }),
    },
    onEveryList(
      'lists.envelope-arithmetic',
      'totalPages = ceil(totalCount / pageSize); page lengths add up; a page past the last is empty',
      async (c, data) => {
        const total = data.totalCount;
        const pageSize = pageSizeFor(total);
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
                isSuccess(ex) && page !== undefined,
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
              isSuccess(ex) && page !== undefined,
              where(data, text),
              ex,
              'a 2xx with a page',
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
    onEveryList('lists.walk-pages', 'Walking every page yields totalCount distinct items', async (c, data) => {
      const maxPages = c.run.options.maxPages;
      if (Math.ceil(data.totalCount / 1000) > maxPages)
        return c.cannot(`${label(data.op)}: ${data.totalCount} items need more than ${maxPages} pages (--max-pages)`);
      if (data.totalCount === 0) return c.cannot(`${label(data.op)}: the list is empty`);
      // The envelope check's three pages (shared with it); more when a page of 1000 cannot hold a third of the list.
      const pageSize = pageSizeFor(data.totalCount, Math.min(maxPages, 3));
      const seen = new Map<string, number>();
      let total = -1;
      let last: Exchange | undefined;
      for (let n = 1; n <= maxPages; n++) {
        const ex = await request(c, data, { pageNumber: n, pageSize });
        last = ex;
        const page = pageOf(ex);
        if (
          !c.expect(
            isSuccess(ex) && page !== undefined,
            where(data, `pageNumber=${n}&pageSize=${pageSize}`),
            ex,
            'a 2xx with a page',
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
  ];
}
