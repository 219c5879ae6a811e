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

/** `{ results, pageNumber, pageSize, totalPages, totalCount }` with `totalPages = ceil(totalCount / pageSize)`. */
export interface Page<T> {
  results: T[];
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}
