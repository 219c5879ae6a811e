import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { pageOf } from '../contract/bodies.js';
import { distinctCount, ordered, typedCompare } from './order.js';
import { isDocumentedDateField, typeOfValues } from '../contract/field-types.js';
import { OBSERVE_CHECK } from '../observe-check.js';
import { Findings, where, type ExchangeRule, type Finding, type RuleEnv } from './types.js';
import { expectedIn } from '../contract/decided.js';
import type { LearnedListField } from '../../spec/decisions/index.js';

const CLAUSE = 'Endpoints / List and search endpoints';
const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 1000;

/** The list parameters of a request as sent: the query string of a GET list, the JSON body of a search. */
function sentListParams(ex: Exchange): Record<string, unknown> {
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

/** A success answer of a contract list operation. */
const isListAnswer = (ex: Exchange) =>
  ex.status >= 200 && ex.status < 300 && ex.operationId !== undefined && operation(ex.operationId).list !== undefined;

/** A success answer of a contract list operation that is a page envelope: the target answers it as a list. */
const isPage = (ex: Exchange) => isListAnswer(ex) && pageOf(ex) !== undefined;

/**
 * The envelope of a page adds up and says the page and size asked for (Endpoints / List and search endpoints: the
 * defaults 1 and 25, pageSize between 1 and 1000). A size asked outside the bounds may be refused or clamped, but a
 * page never says a size outside them; how it is clamped is the contract's decision (`judgeClamping`).
 */
function judgeEnvelope(ex: Exchange): Finding[] {
  const f = new Findings();
  const p = pageOf(ex) as NonNullable<ReturnType<typeof pageOf>>;
  const pages = p.totalCount === 0 ? 0 : Math.ceil(p.totalCount / p.pageSize);
  f.check(
    p.totalPages === pages || (p.totalCount === 0 && p.totalPages === 1),
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
  if (askedSize !== undefined && askedSize >= 1 && askedSize <= MAX_PAGE_SIZE)
    f.check(
      p.pageSize === askedSize,
      `${where(ex)}: pageSize is not the size asked for (default ${DEFAULT_PAGE_SIZE})`,
      String(askedSize),
      String(p.pageSize),
    );
  else
    f.check(
      p.pageSize >= 1 && p.pageSize <= MAX_PAGE_SIZE,
      `${where(ex)}: a pageSize outside 1..${MAX_PAGE_SIZE} was honoured`,
      `1..${MAX_PAGE_SIZE}`,
      String(p.pageSize),
    );
  const askedNumber = sent.pageNumber === undefined || sent.pageNumber === '' ? 1 : number;
  if (askedNumber !== undefined && askedNumber >= 1)
    f.check(
      p.pageNumber === askedNumber,
      `${where(ex)}: pageNumber is not the page asked for (default 1)`,
      String(askedNumber),
      String(p.pageNumber),
    );
  return f.list;
}

/**
 * What the contract decides where the reference is silent: every list answers the page envelope (several response
 * shapes are "not shown"), and a page size or number outside the bounds is clamped to the nearest bound when it is
 * not refused.
 */
function judgeContractEnvelope(ex: Exchange): Finding[] {
  const f = new Findings();
  const p = pageOf(ex);
  if (
    !f.check(
      p !== undefined,
      `${where(ex)}: not a page envelope`,
      '{results, pageNumber, pageSize, totalPages, totalCount}',
    )
  )
    return f.list;
  const page = p as NonNullable<typeof p>;
  const sent = sentListParams(ex);
  const size = integerParam(sent.pageSize);
  if (size !== undefined && (size < 1 || size > MAX_PAGE_SIZE))
    f.check(
      page.pageSize === Math.min(MAX_PAGE_SIZE, Math.max(1, size)),
      `${where(ex)}: pageSize ${size} was not clamped to the nearest bound`,
      String(Math.min(MAX_PAGE_SIZE, Math.max(1, size))),
      String(page.pageSize),
    );
  const number = integerParam(sent.pageNumber);
  if (number !== undefined && number < 1)
    f.check(
      page.pageNumber === 1,
      `${where(ex)}: pageNumber ${number} was not clamped to 1`,
      '1',
      String(page.pageNumber),
    );
  return f.list;
}

/** The field a sortBy names among the members of the page's items (matched without regard to case), if any. */
function sortedField(ex: Exchange): { name: string; spelled: string; descending: boolean } | undefined {
  const first =
    String(sentListParams(ex).sortBy ?? '')
      .split(',')[0]
      ?.trim() ?? '';
  const descending = first.startsWith('-');
  const spelled = first.replace(/^[-+]/, '');
  const page = pageOf(ex);
  if (!spelled || !page) return undefined;
  const name = memberNamed(page.results, spelled.toLowerCase());
  return name ? { name, spelled, descending } : undefined;
}

/** The first member of any item whose name, lower-cased, is `lower` (items of a page mostly share their members). */
function memberNamed(items: readonly Record<string, unknown>[], lower: string): string | undefined {
  for (const item of items) for (const key in item) if (key.toLowerCase() === lower) return key;
  return undefined;
}

/** The results of a sorted page follow the first key of `sortBy` (ties and later keys are not judged alone). */
function judgeSortOrder(ex: Exchange): Finding[] {
  const f = new Findings();
  const sorted = sortedField(ex) as NonNullable<ReturnType<typeof sortedField>>;
  const page = pageOf(ex) as NonNullable<ReturnType<typeof pageOf>>;
  const values = page.results.map((item) => item[sorted.name]);
  const type = typeOfValues(values);
  if (!type || distinctCount(values) < 2) return f.list;
  f.check(
    ordered(values, typedCompare({ type }), sorted.descending),
    `${where(ex)}: results are not in ${sorted.descending ? 'descending' : 'ascending'} ${sorted.name} order`,
    `${sorted.descending ? 'descending' : 'ascending'} by ${sorted.name}`,
    JSON.stringify(values.slice(0, 12)),
  );
  return f.list;
}

/** Column names a filter expression names (quoted values left out). */
function filterColumns(filterBy: string): string[] {
  const unquoted = filterBy.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  return [...unquoted.matchAll(/([A-Za-z_][\w.]*)\s*\[/g)].map((m) => m[1] as string);
}

/** A filter naming a column the contract's table does not list was answered (the table is the contract's decision). */
function judgeUnknownColumn(ex: Exchange): Finding[] {
  const f = new Findings();
  const op = operation(ex.operationId as string);
  const filterBy = sentListParams(ex).filterBy;
  if (typeof filterBy !== 'string') return f.list;
  const known = new Set((op.list?.fields ?? []).filter((x) => x.filterable).map((x) => x.name.toLowerCase()));
  const unknown = filterColumns(filterBy).filter((c) => !known.has(c.toLowerCase()));
  f.check(
    unknown.length === 0,
    `${where(ex)}: a filter on ${unknown.join(', ')} (not a column of ${op.operationId} in the contract) was answered`,
    '400 COMMON.QUERY.FILTER_PARSING_FAILED',
    `${ex.status}`,
  );
  return f.list;
}

/** A field the deployment was observed not to sort by (`list-fields:<op>` of --decisions): its order is not judged. */
function learnedNotSortable(ex: Exchange, env: RuleEnv): boolean {
  const learned = env.decisions?.get(`list-fields:${ex.operationId}`) as LearnedListField[] | undefined;
  const name = sortedField(ex)?.name.toLowerCase();
  if (!learned || !name) return false;
  const field = learned.find((f) => f.name.toLowerCase() === name || f.query.toLowerCase() === name);
  return field === undefined || !field.sortable;
}

/** Exchanges the runner sent to learn what a list supports: a sort it tries may be one the target ignores. */
const probing = (ex: Exchange) => ex.check === OBSERVE_CHECK;

const rule = (
  id: string,
  title: string,
  family: 'lists' | 'filters',
  level: 'MUST' | 'SHOULD',
  clause: string,
  applies: (ex: Exchange) => boolean,
  judge: (ex: Exchange, env: RuleEnv) => Finding[],
): ExchangeRule => ({ id, title, family, clause, level, applies, judge });

const sorted = (ex: Exchange) =>
  isPage(ex) && typeof sentListParams(ex).sortBy === 'string' && sortedField(ex) !== undefined;
const filtered = (ex: Exchange) => isPage(ex) && typeof sentListParams(ex).filterBy === 'string';
/** A sort on a date field the reference names ("CreatedAt and LastModifiedAt are filterable and sortable where an endpoint exposes them"), spelled as the items or the reference spell it. */
const documentedSort = (ex: Exchange) => {
  const s = sortedField(ex);
  return (
    s !== undefined &&
    isDocumentedDateField(s.name) &&
    (s.spelled === s.name || (isDocumentedDateField(s.spelled) && /^[A-Z]/.test(s.spelled)))
  );
};

/** Rules of every page answer: its envelope, its order, and the filter it was answered for. */
export const ENVELOPE_RULES: ExchangeRule[] = [
  rule(
    'lists.envelope',
    'Every page adds up: totalPages = ceil(totalCount / pageSize), at most pageSize results, the page and size asked for',
    'lists',
    'MUST',
    CLAUSE,
    isPage,
    judgeEnvelope,
  ),
  rule(
    'lists.envelope.inferred',
    "Every list answers the page envelope, and clamps out-of-bounds paging to the bounds (the contract's decisions)",
    'lists',
    'SHOULD',
    `${CLAUSE} (response shapes of several lists and the answer to out-of-bounds paging are not shown)`,
    isListAnswer,
    (ex, env) =>
      // A deployment observed to answer this collection as a bare array (--decisions) is not held to the envelope.
      expectedIn<'list-form'>(env, `list-form:${ex.operationId}`, 'envelope') === 'array' && pageOf(ex) === undefined
        ? []
        : judgeContractEnvelope(ex),
  ),
];
export const SORT_RULES: ExchangeRule[] = [
  rule(
    'lists.sort-order',
    'Every page sorted by CreatedAt or LastModifiedAt follows it',
    'lists',
    'MUST',
    `${CLAUSE} (date fields are sortable where exposed)`,
    (ex) => sorted(ex) && !probing(ex) && documentedSort(ex),
    judgeSortOrder,
  ),
  rule(
    'lists.sort-order.inferred',
    'Every sorted page follows the first key of its sortBy',
    'lists',
    'SHOULD',
    `${CLAUSE} (which fields sort is not shown; a target may ignore a sortBy it does not support)`,
    (ex) => sorted(ex) && !documentedSort(ex),
    (ex, env) => (learnedNotSortable(ex, env) ? [] : judgeSortOrder(ex)),
  ),
];
export const UNKNOWN_COLUMN_RULES: ExchangeRule[] = [
  rule(
    'filters.unknown-column.inferred',
    "A filter on a column outside the contract's table is refused with FILTER_PARSING_FAILED",
    'filters',
    'SHOULD',
    `${CLAUSE} (which fields each endpoint filters by is not shown)`,
    filtered,
    judgeUnknownColumn,
  ),
];
