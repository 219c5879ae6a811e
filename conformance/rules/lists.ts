import { operation, type OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { pageOf } from '../bodies.js';
import { distinctCount, ordered, typedCompare } from './order.js';
import { Findings, where, type ExchangeRule, type Finding } from './types.js';

const CLAUSE = 'Endpoints / List and search endpoints';
const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 1000;

/** The list parameters of a request as sent: the query string of a GET list, the JSON body of a search. */
export function sentListParams(ex: Exchange): Record<string, unknown> {
  const op = ex.operationId ? operation(ex.operationId) : undefined;
  if (op?.list?.parametersIn === 'body') {
    try {
      const body = JSON.parse(ex.requestBody ?? '{}') as unknown;
      return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  const at = ex.target.indexOf('?');
  return at === -1 ? {} : Object.fromEntries(new URLSearchParams(ex.target.slice(at + 1)));
}

/** An integer parameter as sent, or undefined when absent or not an integer. */
function integerParam(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

const isPage = (ex: Exchange) =>
  ex.status === 200 && ex.operationId !== undefined && operation(ex.operationId).list !== undefined;

/** The envelope of a page answer adds up, and says the page and size asked for (clamped to the bounds, or 1 and 25). */
function judgeEnvelope(ex: Exchange): Finding[] {
  const f = new Findings();
  const page = pageOf(ex);
  if (
    !f.check(
      page !== undefined,
      `${where(ex)}: not a page envelope`,
      '{results, pageNumber, pageSize, totalPages, totalCount}',
    )
  )
    return f.list;
  const p = page!;
  const pages = p.totalCount === 0 ? 0 : Math.ceil(p.totalCount / p.pageSize);
  f.check(
    p.totalPages === pages,
    `${where(ex)}: totalPages does not follow from totalCount and pageSize`,
    `ceil(${p.totalCount} / ${p.pageSize}) = ${pages}`,
    String(p.totalPages),
  );
  f.check(
    p.results.length <= p.pageSize,
    `${where(ex)}: more results than pageSize`,
    `at most ${p.pageSize}`,
    String(p.results.length),
  );
  const sent = sentListParams(ex);
  const size = integerParam(sent.pageSize);
  const number = integerParam(sent.pageNumber);
  const askedSize = sent.pageSize === undefined || sent.pageSize === '' ? DEFAULT_PAGE_SIZE : size;
  if (askedSize !== undefined) {
    const expected = Math.min(MAX_PAGE_SIZE, Math.max(1, askedSize));
    f.check(
      p.pageSize === expected,
      `${where(ex)}: pageSize is not the size asked for (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`,
      String(expected),
      String(p.pageSize),
    );
  }
  const askedNumber = sent.pageNumber === undefined || sent.pageNumber === '' ? 1 : number;
  if (askedNumber !== undefined)
    f.check(
      p.pageNumber === Math.max(1, askedNumber),
      `${where(ex)}: pageNumber is not the page asked for (default 1)`,
      String(Math.max(1, askedNumber)),
      String(p.pageNumber),
    );
  return f.list;
}

/** The results of a sorted page follow the first key of `sortBy` (ties and later keys are not judged alone). */
function judgeSortOrder(ex: Exchange): Finding[] {
  const f = new Findings();
  const op = operation(ex.operationId as string);
  const first =
    String(sentListParams(ex).sortBy ?? '')
      .split(',')[0]
      ?.trim() ?? '';
  const descending = first.startsWith('-');
  const name = first.replace(/^[-+]/, '');
  const field = op.list?.fields.find((x) => x.sortable && x.name.toLowerCase() === name.toLowerCase());
  const page = pageOf(ex);
  if (!field || !page) return f.list;
  const values = page.results.map((item) => item[field.name]);
  if (distinctCount(values) < 2) return f.list;
  f.check(
    ordered(values, typedCompare(field), descending),
    `${where(ex)}: results are not in ${descending ? 'descending' : 'ascending'} ${field.name} order`,
    `${descending ? 'descending' : 'ascending'} by ${field.name}`,
    JSON.stringify(values.slice(0, 12)),
  );
  return f.list;
}

/** Column names a filter expression names (quoted values left out). */
export function filterColumns(filterBy: string): string[] {
  const unquoted = filterBy.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  return [...unquoted.matchAll(/([A-Za-z_][\w.]*)\s*\[/g)].map((m) => m[1] as string);
}

/** A filter naming a column the list does not filter by is refused, never answered as if it were not there. */
function judgeUnknownColumn(ex: Exchange): Finding[] {
  const f = new Findings();
  const op = operation(ex.operationId as string);
  const filterBy = sentListParams(ex).filterBy;
  if (typeof filterBy !== 'string') return f.list;
  const known = new Set((op.list?.fields ?? []).filter((x) => x.filterable).map((x) => x.name.toLowerCase()));
  const unknown = filterColumns(filterBy).filter((c) => !known.has(c.toLowerCase()));
  f.check(
    unknown.length === 0,
    `${where(ex)}: a filter on ${unknown.join(', ')} (not a column of ${op.operationId}) was answered`,
    '400 COMMON.QUERY.FILTER_PARSING_FAILED',
    `${ex.status}`,
  );
  return f.list;
}

function twins(
  id: string,
  title: string,
  family: 'lists' | 'filters',
  applies: (ex: Exchange) => boolean,
  judge: (ex: Exchange) => Finding[],
): ExchangeRule[] {
  return (['documented', 'inferred'] as const).map((provenance) => ({
    id: provenance === 'documented' ? id : `${id}.inferred`,
    title: provenance === 'documented' ? title : `${title} (operations the contract infers)`,
    family,
    clause: CLAUSE,
    level: provenance === 'documented' ? ('MUST' as const) : ('SHOULD' as const),
    applies: (ex: Exchange) =>
      applies(ex) && (operation(ex.operationId as string) as OperationDef).provenance === provenance,
    judge,
  }));
}

const sorted = (ex: Exchange) => isPage(ex) && typeof sentListParams(ex).sortBy === 'string';
const filtered = (ex: Exchange) => isPage(ex) && typeof sentListParams(ex).filterBy === 'string';

/** Rules of every page answer: its envelope, its order, and the filter it was answered for. */
export const ENVELOPE_RULES: ExchangeRule[] = twins(
  'lists.envelope',
  'Every page adds up: totalPages = ceil(totalCount / pageSize), at most pageSize results, the page and size asked for',
  'lists',
  isPage,
  judgeEnvelope,
);
export const SORT_RULES: ExchangeRule[] = twins(
  'lists.sort-order',
  'Every sorted page follows the first key of its sortBy',
  'lists',
  sorted,
  judgeSortOrder,
);
export const UNKNOWN_COLUMN_RULES: ExchangeRule[] = twins(
  'filters.unknown-column',
  'A filter naming an unknown column gives 400 COMMON.QUERY.FILTER_PARSING_FAILED',
  'filters',
  filtered,
  judgeUnknownColumn,
);
