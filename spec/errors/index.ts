/** Error model of the API: the code catalog, the HTTP status of each code, and the catalog entries. */
export { ERROR_CODE_GROUPS, ERROR_CODES, type ErrorCode, type ErrorCodeGroup, type ErrorCodePrefix } from './codes.js';
export {
  DEFAULT_STATUS_RATIONALE,
  DOCUMENTED_STATUSES,
  ERROR_STATUSES,
  STATUS_OVERRIDES,
  STATUS_RULES,
  statusOf,
  statusRuleOf,
  type CodeStatus,
  type StatusRule,
} from './statuses.js';
export {
  ERROR_CATALOG,
  ERROR_PREFIXES,
  catalogEntry,
  isErrorCode,
  titleOf,
  toCatalogEntry,
  type CatalogRecord,
  type ErrorCatalogEntry,
} from './catalog.js';
export { codeParts, humanise, type CodeParts } from './naming.js';
