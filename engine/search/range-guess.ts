import { KeptPerOwner } from './kept-per-owner.js';
import type { KeyRange } from './key-range.js';
import type { RangeRead } from './range-values.js';

/** Most ranges whose last read is kept per pool: a few hundred small entries. */
const KEPT = 256;

const known = new KeptPerOwner<RangeRead>(KEPT);

/** What a range's read depends on: the keys it reads (path id, table, rank, folding, exactness) and its bounds, and the two limits. */
function keyOf(range: KeyRange, valuesMost: number, keysMost: number): string {
  const { pathId, keys, rank, folded, lower, upper, field } = range;
  return JSON.stringify([pathId, keys ?? 'sort', rank, folded ?? false, field.valueType ?? null, lower ?? null, upper ?? null, valuesMost, keysMost]);
}

/**
 * How the last probe of this range on this PostgreSQL pool had it read (range-values.ts), or
 * undefined. Only a guess: writes since may have changed it, so the statement it shapes checks it
 * in its own snapshot (rangeGuard) and the probe runs when it fails.
 */
export function guessedRangeRead(db: object, range: KeyRange, valuesMost: number, keysMost: number): RangeRead | undefined {
  return known.get(db, keyOf(range, valuesMost, keysMost));
}

/** Keeps what a probe of the range found (the oldest out first when full). */
export function rememberRangeRead(db: object, range: KeyRange, valuesMost: number, keysMost: number, read: RangeRead): void {
  known.set(db, keyOf(range, valuesMost, keysMost), read);
}
