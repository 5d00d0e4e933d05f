import type { SortPairTarget } from './sort-key-target.js';

/**
 * The most pairs one entity keeps. Why a bound: each pair is one more row and index entry per
 * record write (a trigger fills it), and the directions are part of a pair, so a client that
 * sorts by many combinations would otherwise multiply the writes; past it, a request is served
 * by its first path's keys as before (exact either way).
 */
export const PAIRS_MOST = 8;

/**
 * The columns of a pair's own index, in the order its searches read: each key's type rank
 * ascending, its number and string in the key's direction, then the id ascending (ties). The same
 * for SQLite and PostgreSQL (whose key columns carry the "C" collation).
 */
export function pairIndexColumns(target: Pick<SortPairTarget, 'first' | 'then'>): string {
  const way = (descending: boolean) => (descending ? ' DESC' : '');
  const { first, then } = target;
  return `rank, num${way(first.descending)}, str${way(first.descending)}, then_rank, then_num${way(then.descending)}, then_str${way(then.descending)}, id`;
}
