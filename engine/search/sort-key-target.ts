import type { SearchRequest, SearchScope, SortKey } from './types.js';

/** The registry of paths whose sort keys are kept: one id per connector, entity, path and value type. */
export const SORT_PATHS_TABLE = 'search_sort_paths';
/** The kept sort keys: one row per record and registered path, indexed in both directions. */
export const SORT_KEYS_TABLE = 'search_sort_keys';
/** The registry of sort key pairs kept together: one id per connector, entity, and two paths with their value types and directions. */
export const SORT_PAIR_PATHS_TABLE = 'search_sort_pair_paths';
/** The kept sort key pairs: one row per record and registered pair, each pair with an index of its own in its directions. */
export const SORT_PAIRS_TABLE = 'search_sort_pairs';

/** Whose keys: one path of one entity of one connector, read as a value type ('' when untyped). */
export interface SortKeyTarget extends SearchScope {
  path: string;
  valueType: string;
}

/** One side of a pair: a path, its value type ('' when untyped) and its direction. */
export interface PairSide {
  path: string;
  valueType: string;
  descending: boolean;
}

/** Two sort keys kept together (a request's first two), in the request's directions. */
export interface SortPairTarget extends SearchScope {
  first: PairSide;
  then: PairSide;
}

/** Which kept keys serve a sorted request: a path's (`keys` 1: its first sort key) or a pair's (`keys` 2: its first two). */
export interface KeptSort {
  id: number;
  keys: 1 | 2;
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

const side = (key: SortKey): PairSide => ({ path: key.field.path, valueType: key.field.valueType ?? '', descending: key.direction === 'desc' });

/**
 * The pair a request's keys would serve: its first two sort keys, when the manifest declares both
 * sortable and they are different paths. Why: with one path's keys, each tie group of the first key
 * is read whole to be ordered by the second (a few hundred records per date at 100,000, thousands
 * at 1M); a pair's index holds both orders, so a page reads about its own rows.
 */
export function sortPairTarget(scope: SearchScope, request: SearchRequest): SortPairTarget | undefined {
  const [first, then] = request.sort;
  if (!first?.field.sortable || !then?.field.sortable || first.field.path === then.field.path) return undefined;
  return { connectorId: scope.connectorId, entity: scope.entity, first: side(first), then: side(then) };
}

/** The cache key of a target. */
export const targetKey = (target: SortKeyTarget) => JSON.stringify([target.connectorId, target.entity, target.path, target.valueType]);

/** The cache key of a pair target. */
export const pairKey = (target: SortPairTarget) => JSON.stringify(['pair', target.connectorId, target.entity, target.first, target.then]);
