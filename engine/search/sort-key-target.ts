import type { SearchRequest, SearchScope } from './types.js';

/** The registry of paths whose sort keys are kept: one id per connector, entity, path and value type. */
export const SORT_PATHS_TABLE = 'search_sort_paths';
/** The kept sort keys: one row per record and registered path, indexed in both directions. */
export const SORT_KEYS_TABLE = 'search_sort_keys';

/** Whose keys: one path of one entity of one connector, read as a value type ('' when untyped). */
export interface SortKeyTarget extends SearchScope {
  path: string;
  valueType: string;
}

/**
 * The path a request's keys would serve: its first sort key, when the manifest declares it
 * sortable. Later keys are ordered within the first key's ties (the planners sort those groups),
 * so one index per path serves every combination.
 */
export function sortKeyTarget(scope: SearchScope, request: SearchRequest): SortKeyTarget | undefined {
  const first = request.sort[0];
  if (!first?.field.sortable) return undefined;
  return { connectorId: scope.connectorId, entity: scope.entity, path: first.field.path, valueType: first.field.valueType ?? '' };
}

/** The cache key of a target. */
export const targetKey = (target: SortKeyTarget) => JSON.stringify([target.connectorId, target.entity, target.path, target.valueType]);
