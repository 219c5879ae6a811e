/** Error model of the API: the code catalog, the HTTP status of each code, and the catalog entries. */
export { ERROR_CODES, type ErrorCode } from './codes.js';
export { statusOf } from './statuses.js';
export {
  ERROR_CATALOG,
  catalogEntry,
  isErrorCode,
  toCatalogEntry,
  type CatalogRecord,
} from './catalog.js';
