import type { CompileContext } from './sql-dialect.js';
import type { Bound, KeyRange } from './key-range.js';
import { SORT_KEYS_TABLE } from './sort-key-target.js';
import { VALUE_KEYS_TABLE } from './value-key-target.js';

/** The table of the kept keys a range reads: its path's value keys or sort keys. */
export const keysTable = (range: Pick<KeyRange, 'keys'>): string => (range.keys === 'value' ? VALUE_KEYS_TABLE : SORT_KEYS_TABLE);

/** The key column of the rows `s` a range compares: the number, the string, or the folded string (the value keys' folded index). */
export const rangeColumn = (range: Pick<KeyRange, 'rank' | 'folded'>): string => (range.rank === 0 ? 's.num' : range.folded ? 'lower(s.str)' : 's.str');

/**
 * The key rows `s` of the range: an index range of (path_id, rank, num, str). On PostgreSQL an
 * untyped number is bounded inclusively: jsonb numbers compare exactly and keys are float8, so a
 * value just past the bound may round onto it; the filter, tested after, decides. Everywhere
 * else both sides hold the same value: typed values (the same float8), SQLite's json_extract
 * numbers (doubles or integers, as the key keeps them), strings (the same bytes).
 */
export function keyRangeWhere(range: KeyRange, { d, params }: Pick<CompileContext, 'd' | 'params'>): string {
  const column = rangeColumn(range);
  const slot = range.rank === 0 ? 'number' : 'string';
  const exact = keysAreExact(range, d.name);
  const where = [`s.path_id = ${params.add(range.pathId)}`, `s.rank = ${range.rank}`];
  if (range.rank === 1) where.push('s.num = 0');
  const side = (bound: Bound | undefined, op: '>' | '<') => {
    if (bound)
      where.push(`${d.keyColumn(slot, column)} ${op}${bound.inclusive || !exact ? '=' : ''} ${d.keyParam(slot, bound.value, { d, params } as CompileContext)}`);
  };
  side(range.lower, '>');
  side(range.upper, '<');
  return where.join(' AND ');
}

/** Whether the keys hold a range's values exactly (see keyRangeWhere): all but PostgreSQL's untyped numbers. */
export function keysAreExact(range: Pick<KeyRange, 'rank' | 'field'>, dialect: 'sqlite' | 'postgres'): boolean {
  return range.rank === 1 || range.field.valueType !== undefined || dialect === 'sqlite';
}

/**
 * Whether the records under one key value may all fall outside the range: only a value equal to
 * an excluded bound, where keys are not exact (a jsonb number just inside the bound rounds onto
 * it as a float8 key). Reading such a value's keys can mean testing every one of them.
 */
export function isBoundaryValue(range: KeyRange, value: string | number, dialect: 'sqlite' | 'postgres'): boolean {
  if (keysAreExact(range, dialect)) return false;
  return [range.lower, range.upper].some((bound) => bound !== undefined && !bound.inclusive && bound.value === value);
}
