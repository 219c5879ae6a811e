import type { FaultName } from '../faults.js';
import type { ListQuery, Page } from '../lists/index.js';

/** Planted list faults that change the query before the engine runs (`--fault`; see mock/faults.ts). */
export function adjustListQuery(faults: ReadonlySet<FaultName>, query: ListQuery): ListQuery {
  if (faults.size === 0) return query;
  let q = { ...query };
  if (faults.has('page-size-default-20') && (q.pageSize === undefined || q.pageSize === '')) q.pageSize = 20;
  if (faults.has('page-size-1001-accepted') && Number(q.pageSize) > 1000) q = { ...q, pageSize: 1000 };
  if (faults.has('contains-as-equals') && typeof q.filterBy === 'string') q.filterBy = q.filterBy.replace(/\[contains\]/gi, '[Equals]');
  if (faults.has('sort-descending-ignored') && typeof q.sortBy === 'string') q.sortBy = q.sortBy.split(',').map((s) => s.trim().replace(/^-/, '')).join(',');
  return q;
}

/** Planted list faults that change the page after the engine ran. */
export function adjustPage<T>(faults: ReadonlySet<FaultName>, original: ListQuery, page: Page<T>): Page<T> {
  if (faults.size === 0) return page;
  let p = page;
  if (faults.has('total-pages-off-by-one')) p = { ...p, totalPages: p.totalPages + 1 };
  if (faults.has('page-size-1001-accepted') && Number(original.pageSize) > 1000) p = { ...p, pageSize: Number(original.pageSize) };
  return p;
}
