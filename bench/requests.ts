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
