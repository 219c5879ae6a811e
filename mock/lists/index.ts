/**
 * The list engine of the mock server: `filterBy` / `sortBy` / paging for list and search endpoints,
 * free of I/O, clocks and environment.
 */
export type { ListError, ListErrorCode, Result } from './result.js';
export { FILTER_PARSING_FAILED, SORTING_PARSING_FAILED, VALIDATION_ERROR } from './result.js';
export type { ListQuery, Page } from './query.js';
export type { AndNode, ConditionNode, FilterAst, OrNode } from './filter/ast.js';
export { parseFilter, MAX_FILTER_DEPTH } from './filter/parser.js';
export { compileFilter, type CompiledFilter } from './filter/compile.js';
export { getCompiledFilter, FILTER_CACHE_SIZE } from './filter/cache.js';
export { parseSort, DEFAULT_SORT, type SortKey, type SortSpec } from './sort.js';
export { parsePaging, DEFAULT_PAGE_NUMBER, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Paging } from './paging.js';
export { ListCollection, ORDER_CACHE_SIZE, RESULT_CACHE_SIZE, type CollectionPage } from './collection.js';
export { runList, type ListSource } from './engine.js';
export { DEFAULT_LIST_ENGINE, type ListEngineOptions, type TextCase } from './engine-options.js';
