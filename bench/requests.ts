import { adminClaims } from '../index.js';
import { mintToken } from '../index.js';
import { DEFAULT_JWT_SECRET, DEFAULT_ORG } from '../index.js';
import type { RequestPlan } from './load.js';

/** Substrings of the seeded SKU names (most match some names, `xq` none), cycled through by the list requests. */
export const NAME_FRAGMENTS: readonly string[] = ['ve', 'ear', 'oo', 'ut', 'ing', 'al', 'ro', 'ste', 'pu', 'xq'];

/** An admin token of `org`, signed with the mock's default secret. */
export function adminToken(org: string = DEFAULT_ORG): Promise<string> {
  return mintToken(DEFAULT_JWT_SECRET, adminClaims(org), 12 * 3600);
}

/** `GET /v1/items/skus?pageSize=25&sortBy=-name&filterBy=name[Contains]<x>` with the brackets URL-encoded. */
export function listPath(i: number): string {
  const x = NAME_FRAGMENTS[i % NAME_FRAGMENTS.length] ?? 'oo';
  return `/v1/items/skus?pageSize=25&sortBy=-name&filterBy=${encodeURIComponent(`name[Contains]${x}`)}`;
}

export function listPlan(token: string): RequestPlan {
  return {
    method: 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    path: listPath,
    expected: [200],
  };
}

/** `PUT /v1/items/skus/{ref}/stock` setting a varying whole quantity at a location of the SKU. */
export function stockPlan(token: string, skuReference: string, locationReference: string): RequestPlan {
  const path = `/v1/items/skus/${encodeURIComponent(skuReference)}/stock`;
  return {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    path: () => path,
    body: (i) => JSON.stringify({ locationReference, stock: i % 1000 }),
    expected: [204],
  };
}

/** A list request without credentials: a 401 problem. */
export function unauthorizedPlan(): RequestPlan {
  return { method: 'GET', headers: { accept: 'application/json' }, path: () => '/v1/items/skus', expected: [401] };
}

/** The list requests (`listPath`), each as one of `tokens`' tenants, taken round-robin. */
export function tenantsListPlan(tokens: readonly string[]): RequestPlan {
  const headers = tokens.map((token) => ({ authorization: `Bearer ${token}` }));
  return {
    method: 'GET',
    headers: { accept: 'application/json' },
    path: listPath,
    headersOf: (i) => headers[i % headers.length] ?? {},
    expected: [200],
  };
}

/** A series of list requests whose filters never repeat: `variedListPath(series, n)` for n below `length`. */
export interface VariedSeries {
  /** 3-letter name fragments, each found in some SKU name (a filter that matches, so a real sort). */
  readonly fragments: readonly string[];
  /** How many `totalStock[Gt]` thresholds (0...thresholds - 1) the series cycles through. */
  readonly thresholds: number;
  readonly sortable: readonly string[];
  /** How many requests differ: the series repeats from there on. */
  readonly length: number;
}

/**
 * The series over the distinct 3-letter fragments (lower case, letters only) of `names` and the `sortable` fields.
 * The threshold count is a prime that does not divide the fragment count, so (n mod fragments, n mod thresholds)
 * differs for every n below their product (Chinese remainder theorem).
 */
export function variedSeries(names: readonly string[], sortable: readonly string[]): VariedSeries {
  const found = new Set<string>();
  for (const name of names)
    for (const word of name.toLowerCase().split(/[^a-z]+/))
      for (let i = 0; i + 3 <= word.length; i++) found.add(word.slice(i, i + 3));
  const fragments = [...found].sort();
  if (fragments.length === 0) throw new Error('no 3-letter fragment in the SKU names');
  if (sortable.length === 0) throw new Error('no sortable field');
  const thresholds = fragments.length % 997 === 0 ? 991 : 997;
  return { fragments, thresholds, sortable, length: fragments.length * thresholds };
}

/**
 * The n-th request of `series`: a name fragment AND a `totalStock[Gt]` threshold, both taken from the counter,
 * sorted by one of the sortable fields in turn (ascending, then descending). Every answer is an uncached filter + sort.
 */
export function variedListPath(series: VariedSeries, n: number): string {
  const fragment = series.fragments[n % series.fragments.length] ?? 'oo';
  const filter = `name[Contains]${fragment} && totalStock[Gt]${n % series.thresholds}`;
  const field = series.sortable[n % series.sortable.length] ?? 'name';
  const sort = Math.floor(n / series.sortable.length) % 2 === 0 ? field : `-${field}`;
  return `/v1/items/skus?pageSize=25&sortBy=${encodeURIComponent(sort)}&filterBy=${encodeURIComponent(filter)}`;
}

/** `variedListPath` as a load plan of one tenant. */
export function variedListPlan(token: string, series: VariedSeries): RequestPlan {
  return {
    method: 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    path: (i) => variedListPath(series, i),
    expected: [200],
  };
}
