/**
 * The list query parameters and the page envelope of list and search endpoints.
 * Query-string requests pass raw strings (or `undefined` when absent); POST search bodies may pass JSON numbers.
 */
export interface ListQuery {
  pageNumber?: string | number;
  pageSize?: string | number;
  filterBy?: string;
  sortBy?: string;
}

/** The page envelope of the contract: `totalPages = ceil(totalCount / pageSize)`. */
export type { Page } from '../../spec/schemas/common.js';
