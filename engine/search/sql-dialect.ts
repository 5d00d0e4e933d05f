import type { SqlParams } from './sql-params.js';
import type { TextNode } from './scoring-nodes.js';
import type { FieldRef, ScalarValue, SearchDialect } from './types.js';

/** A comparison leaf as the dialects see it (`neq` and `in` are built from `eq` by the compiler). */
export type LeafOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * What differs between SQLite and PostgreSQL: how a JSON value at a path is reached and compared,
 * how text relevance is computed, how sort keys are typed. The compiler owns the rest (the tree,
 * the keyset, ordering). Every predicate returned is never NULL, so `NOT` and keyset logic stay
 * two-valued. The record row is aliased `r`.
 */
export interface SqlDialect {
  readonly name: SearchDialect;
  /** `eq`/range comparison of the value(s) at `field` with a non-null scalar. */
  compare(field: FieldRef, op: LeafOp, value: Exclude<ScalarValue, null>, params: SqlParams): string;
  /** The field is missing or JSON null (never for array elements). */
  isNull(field: FieldRef, params: SqlParams): string;
  /** Whether the text node matches. */
  textMatch(node: TextNode, params: SqlParams): string;
  /** The text node's relevance, 0..1. */
  textScore(node: TextNode, params: SqlParams): string;
  /** A cheap index-backed superset test for a text node, or null when no index can help. */
  textPrefilter(node: TextNode, params: SqlParams): string | null;
  /** A cheap index-backed superset test for "some string of the record equals `value`", or null when equality is indexed already. */
  equalityPrefilter(value: string, params: SqlParams): string | null;
  /** [type rank, number, string] sort key columns of a single-valued field. */
  sortKey(field: FieldRef, params: SqlParams): [string, string, string];
  /** A bound cursor value, cast for comparison with a key column of that slot. */
  keyParam(slot: 'rank' | 'number' | 'string' | 'score' | 'id', value: string | number, params: SqlParams): string;
  /** The expression a key column is compared and ordered by (adds collation where needed). */
  keyColumn(slot: 'rank' | 'number' | 'string' | 'score' | 'id', column: string): string;
  /** `r.data` as selected, and the record table. */
  readonly table: string;
}
