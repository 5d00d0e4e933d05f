import type { FieldRef, SearchScope } from './types.js';

/** The registry of paths whose value keys are kept: one id per connector, entity and path. */
export const VALUE_PATHS_TABLE = 'search_value_paths';
/** The kept value keys: one row per record, registered path and distinct scalar the record holds there. */
export const VALUE_KEYS_TABLE = 'search_value_keys';

/**
 * The most paths one entity keeps value keys for. Why a bound: each is one more trigger step and a
 * few more index entries per record write, and the paths are whatever clients filter on; past it,
 * an equality on another path is read as before (exact either way).
 */
export const VALUE_PATHS_MOST = 8;

/** Whose value keys: a path inside an object (`assignee.gid`) or through an array (`tags`, `followers.gid`). */
export interface ValueKeyTarget extends SearchScope {
  path: string;
  top: string;
  sub: readonly string[];
  elements: boolean;
}

/**
 * Whether value keys serve equality on a field: an untyped path inside an object or through an
 * array, which no other index serves in id order (PostgreSQL's containment index finds every match,
 * unordered, and a page then sorts them all: 1,720 at 1M records for one user id of 500 in a
 * followers array; SQLite's text index lists them in record order).
 */
export const valueKeysServe = (field: FieldRef): boolean => !field.valueType && (field.elements || field.sub.length > 0);

/**
 * The value keys target of a field: one an equality reads (valueKeysServe), or a `like` prefix on
 * any single-valued path, top-level ones too (like-prefix.ts): only value keys have a folded index.
 */
export function valueKeyTarget(scope: SearchScope, field: FieldRef): ValueKeyTarget {
  return { connectorId: scope.connectorId, entity: scope.entity, path: field.path, top: field.top, sub: field.sub, elements: field.elements };
}

/** The cache key of a value keys target. */
export const valueTargetKey = (target: ValueKeyTarget) => JSON.stringify(['value', target.connectorId, target.entity, target.path]);
