import type { Evidence } from '../../../common/report/types.js';
import type { ObservedRequest, Trace } from '../trace.js';
import { checkDef } from './defs.js';
import {
  decode,
  failed,
  judged,
  notExercised,
  passed,
  plural,
  requestEvidence,
  target,
  type Judge,
} from './support.js';

/** The bounds of the list parameters (Endpoints / List and search endpoints (general rules); Limits). */
const PAGE_SIZE = { min: 1, max: 1000, default: 25 };
const PAGE_NUMBER = { min: 1, default: 1 };

/** The list and search requests the checks judge. */
function listRequests(trace: Trace): ObservedRequest[] {
  return judged(trace).filter((r) => r.list !== undefined);
}

const INTEGER = /^\s*[+-]?\d+\s*$/;

/** A parameter as an integer, its default when absent, NaN when it is not an integer. */
function integer(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  return INTEGER.test(raw) ? Number(raw) : Number.NaN;
}

const pageNumberOf = (r: ObservedRequest) => integer(r.list?.pageNumber, PAGE_NUMBER.default);
const pageSizeOf = (r: ObservedRequest) => integer(r.list?.pageSize, PAGE_SIZE.default);

/** client.paging-bounds: every pageNumber >= 1 and every pageSize within 1..1000. */
export const pagingBounds: Judge = (trace) => {
  const lists = listRequests(trace);
  if (lists.length === 0) return notExercised(checkDef('client.paging-bounds'));
  const evidence: Evidence[] = [];
  for (const r of lists) {
    const n = pageNumberOf(r);
    const size = pageSizeOf(r);
    if (!(n >= PAGE_NUMBER.min))
      evidence.push(requestEvidence(r, 'pageNumber out of bounds', 'an integer >= 1', String(r.list?.pageNumber)));
    if (!(size >= PAGE_SIZE.min && size <= PAGE_SIZE.max))
      evidence.push(
        requestEvidence(r, 'pageSize out of bounds', 'an integer from 1 to 1000', String(r.list?.pageSize)),
      );
  }
  if (evidence.length) return failed(evidence);
  return passed(`${plural(lists.length, 'list request')}, each within the bounds`);
};

/** The parameter of a `name=value` part of a query string, decoded. */
function nameOf(part: string): string | undefined {
  const eq = part.indexOf('=');
  return eq === -1 ? undefined : decode(part.slice(0, eq));
}

/** A part of a query string that reads as the rest of a split filter: empty, or a condition `Field[Operator]...`. */
const CONDITION = /^[\s&|(!]*[A-Za-z_][\w.]*\s*\[/;

/**
 * How a request sent `&&` in filterBy: `encoded` (it arrived inside the parameter), `raw` (the query string was split
 * right after filterBy: an empty part, or a condition without `name=`), or undefined (no `&&` in a filter).
 */
function filterAnd(r: ObservedRequest): 'encoded' | 'raw' | undefined {
  if (!r.rawQuery) return undefined;
  const parts = r.rawQuery.split('&');
  let encoded = false;
  for (const [i, part] of parts.entries()) {
    if (nameOf(part)?.toLowerCase() !== 'filterby') continue;
    const next = parts[i + 1];
    if (next !== undefined && (next === '' || (nameOf(next) === undefined && CONDITION.test(decode(next)))))
      return 'raw';
    if (decode(part.slice(part.indexOf('=') + 1)).includes('&&')) encoded = true;
  }
  return encoded ? 'encoded' : undefined;
}

/** client.filter-encoding: `&&` in filterBy arrives percent-encoded. */
export const filterEncoding: Judge = (trace) => {
  const sent = judged(trace)
    .map((r) => ({ r, how: filterAnd(r) }))
    .filter((x) => x.how !== undefined);
  if (sent.length === 0) return notExercised(checkDef('client.filter-encoding'));
  const raw = sent.filter((x) => x.how === 'raw');
  if (raw.length)
    return failed(
      raw.map(({ r }) =>
        requestEvidence(
          r,
          'a raw && split the query string: the filter arrived cut short',
          'filterBy=...%26%26...',
          target(r),
        ),
      ),
    );
  return passed(`${plural(sent.length, 'filter')} with &&, each percent-encoded`);
};

/** A list as the client walks it: operation and path, page size, filter and sort. */
function walkKey(r: ObservedRequest): string {
  return [r.operationId ?? '', r.method, r.path, pageSizeOf(r), r.list?.filterBy ?? '', r.list?.sortBy ?? ''].join(
    '\u0000',
  );
}

/** A 200 answer of the API that told a totalPages. */
const told = (r: ObservedRequest) => r.answeredBy === 'api' && r.status === 200 && r.list?.totalPages !== undefined;

/** client.page-walk-stops: no page is asked past the totalPages the client was told for that list. */
export const pageWalkStops: Judge = (trace) => {
  const last = new Map<string, number>();
  let walked = 0;
  const evidence: Evidence[] = [];
  for (const r of listRequests(trace)) {
    const key = walkKey(r);
    const total = last.get(key);
    const n = pageNumberOf(r);
    if (total !== undefined && n >= 2) {
      walked++;
      // Page 1 is always a fair question (totalPages 0 has no page, and page 1 is the first request of a walk).
      if (n > Math.max(total, 1))
        evidence.push(requestEvidence(r, `page ${n} asked after the list told totalPages ${total}`, `<= ${total}`));
    }
    if (told(r)) last.set(key, r.list?.totalPages as number);
  }
  if (walked === 0) return notExercised(checkDef('client.page-walk-stops'));
  if (evidence.length) return failed(evidence);
  return passed(`${plural(walked, 'page')} past the first asked, none past totalPages`);
};

/** client.page-walk-complete: a client that reads page 2 or later of a list reads every page up to totalPages. */
export const pageWalkComplete: Judge = (trace) => {
  const walks = new Map<string, { total?: number; read: Set<number>; walked: boolean; example: ObservedRequest }>();
  for (const r of listRequests(trace)) {
    const key = walkKey(r);
    const walk = walks.get(key) ?? { read: new Set<number>(), walked: false, example: r };
    walks.set(key, walk);
    const n = pageNumberOf(r);
    if (n >= 2) walk.walked = true;
    if (told(r)) {
      walk.total = r.list?.totalPages as number;
      walk.read.add(n);
    }
  }
  const walked = [...walks.values()].filter((w) => w.walked && w.total !== undefined);
  if (walked.length === 0) return notExercised(checkDef('client.page-walk-complete'));
  const evidence: Evidence[] = [];
  for (const w of walked) {
    const missing: number[] = [];
    for (let p = 1; p <= (w.total as number); p++) if (!w.read.has(p)) missing.push(p);
    if (missing.length)
      evidence.push(
        requestEvidence(
          w.example,
          `a walk of this list (same size, filter and sort) left pages unread: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
          `every page from 1 to ${w.total}`,
          `${w.read.size} of ${w.total} pages read`,
        ),
      );
  }
  if (evidence.length) return failed(evidence);
  return passed(`${plural(walked.length, 'walk')} of a list, each read to its last page`);
};
