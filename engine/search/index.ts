/**
 * The `search` action's query language over the synchronized copy of records (DESIGN.md §7): one
 * parser/validator, one compiler with SQLite and PostgreSQL dialects, the runner that shapes
 * SPEC.md's result, the record table DDL the store adopts, and the in-memory reference semantics.
 * This file is the folder's only door.
 */
export { defaultSortable, parseSearchParams } from './parse-params.js';
export { compileSearch, type CompiledSearch } from './compile-search.js';
export { runSearch, type RunSearchOptions, type SearchDatabase } from './run-search.js';
export { searchRecords } from './search-records.js';
export { matchesFilter, scoreRecord } from './evaluate.js';
export { projectFields } from './project-fields.js';
export { FILTER_OPERATORS } from './parse-filter.js';
export { searchFilterSchema, searchPathPattern, searchSortKeySchema } from './query-schema.js';
export { SEARCH_LIMITS } from './limits.js';
export { registerSearchFunctions, isStrictNumber } from '../store/index.js';
export { FUZZY_MIN_SIMILARITY, KEYWORD_SEPARATORS } from './text-match.js';
export type {
  CursorValues,
  FieldRef,
  FieldType,
  FilterNode,
  ScalarValue,
  SearchableFields,
  SearchDialect,
  SearchHit,
  SearchRequest,
  SearchResult,
  SearchScope,
  SortKey,
  ValueType,
  ValueTypes,
} from './types.js';
