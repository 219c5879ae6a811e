/**
 * The list engine of the mock server: `filterBy` / `sortBy` / paging for list and search endpoints,
 * free of I/O, clocks and environment.
 */
export type { ListQuery } from './query.js';
export { ListCollection } from './collection.js';
export { runList, type ListSource } from './engine.js';
export { DEFAULT_LIST_ENGINE, type ListEngineOptions } from './engine-options.js';
