import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { postgresDialect } from './postgres-dialect.js';
import { keyRangeWhere, keysTable, rangeColumn } from './key-range-sql.js';
import { SqlParams } from './sql-params.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { KeyRange } from './key-range.js';
import type { SearchDialect } from './types.js';
import { preparedStatement } from './sqlite-statements.js';

type Database = BetterSqlite3.Database | pg.Pool | pg.PoolClient | pg.Client;

/**
 * The most distinct key values a range may hold to be read value by value. Why a bound: each value
 * is its own index walk of up to a page of hits, so the cost is values × page; a range over a
 * handful of integers or dates (the common "this week", "2 to 5 stars") stays a few hundred
 * lookups however many records the range holds.
 */
export const RANGE_VALUES_MOST = 16;

/**
 * The distinct key values in a range, in key order, counted up to `most` (so `most` + 1 answered
 * means "more"): a loose index scan, one seek per value (a recursive query that asks the index
 * for the next value past the last), never a walk over the range's keys. When there are more
 * and `keysMost` is given, the same statement counts the range's keys up to `keysMost` too (one
 * index range walk, no record read): a PostgreSQL statement costs a round trip and a plan, and the
 * two answers decide together how a range is read (range-keys.ts keyRangeFor).
 */
export async function rangeValues(
  db: Database,
  dialect: SearchDialect,
  range: KeyRange,
  most: number,
  keysMost?: number,
): Promise<{ values: (string | number)[]; keys?: number }> {
  const params = new SqlParams();
  const { walk, keysCount } = rangeWalk(range, dialect, params, most);
  // Only past `most` values is the count wanted; the CASE runs its subquery then only.
  const counted = (keys: number) =>
    ` UNION ALL SELECT 1, NULL, CASE WHEN (SELECT count(*) FROM v WHERE v.x IS NOT NULL) > ${params.add(most)} THEN ${keysCount(keys)} END`;
  const text = `${walk} SELECT 0 AS k, x, NULL AS keys FROM v WHERE x IS NOT NULL${keysMost === undefined ? '' : counted(keysMost)}`;
  const { sql, params: values } = params.finish(text, dialect);
  const rows =
    dialect === 'sqlite'
      ? (preparedStatement(db as BetterSqlite3.Database, sql).all(...values) as Row[])
      : (await (db as pg.Pool).query<Row>(sql, values)).rows;
  const keys = rows.find((row) => Number(row.k) === 1)?.keys;
  return {
    values: rows.filter((row) => Number(row.k) === 0).map((row) => row.x as string | number),
    ...(keys === null || keys === undefined ? {} : { keys: Number(keys) }),
  };
}

/**
 * The loose index scan of rangeValues as a `WITH RECURSIVE v(x, n)` clause (the values in key
 * order, numbered from 1, walked up to `most` + 1 of them, then a NULL), and the count of the
 * range's keys up to `keys` as a scalar subquery: shared with the guard that checks a guess of
 * what they answer (rangeGuard).
 */
function rangeWalk(range: KeyRange, dialect: SearchDialect, params: SqlParams, most: number): { walk: string; keysCount: (keys: number) => string } {
  const d = dialect === 'sqlite' ? sqliteDialect : postgresDialect;
  const slot = range.rank === 0 ? 'number' : 'string';
  const column = d.keyColumn(slot, rangeColumn(range));
  const where = keyRangeWhere(range, { d, params });
  const next = (after: string) => `(SELECT ${column} FROM ${keysTable(range)} AS s WHERE ${where}${after} ORDER BY ${column} LIMIT 1)`;
  const walk = `WITH RECURSIVE v(x, n) AS (SELECT ${next('')}, 1 UNION ALL SELECT ${next(` AND ${column} > v.x`)}, v.n + 1 FROM v WHERE v.x IS NOT NULL AND v.n <= ${params.add(most)})`;
  const keysCount = (keys: number) => `(SELECT count(*) FROM (SELECT 1 FROM ${keysTable(range)} AS s WHERE ${where} LIMIT ${params.add(keys)}) AS c)`;
  return { walk, keysCount };
}

/**
 * How rangeValues' answer has a range read (range-keys.ts keyRangeFor): value by value (the
 * values, at most `most`), from its keys (more values, fewer keys than `keysMost`), or in id
 * order past the keys (`scan`: more of both).
 */
export type RangeRead = { values: readonly (string | number)[] } | 'keys' | 'scan';

/**
 * A PostgreSQL boolean expression that holds exactly when rangeValues(range, most, keysMost),
 * read in the same snapshot, answers `read`: the same walk and count, inside the statement the
 * answer shaped (postgres-guarded.ts). Values are compared as the keys hold them (float8 numbers,
 * strings byte for byte), in key order.
 */
export function rangeGuard(range: KeyRange, read: RangeRead, most: number, keysMost: number, params: SqlParams): string {
  const { walk, keysCount } = rangeWalk(range, 'postgres', params, most);
  if (typeof read === 'object') {
    const type = range.rank === 0 ? 'float8[]' : 'text[]';
    const listed = `${params.add(read.values)}::${type}`;
    // COLLATE "C" on the list: the walk's strings are "C", and two implicit collations would leave the comparison none.
    return `(${walk} SELECT ARRAY(SELECT v.x FROM v WHERE v.x IS NOT NULL ORDER BY v.n) = (${range.rank === 0 ? listed : `${listed} COLLATE "C"`}))`;
  }
  const values = `(${walk} SELECT count(*) FROM v WHERE v.x IS NOT NULL)`;
  return `(${values} > ${params.add(most)} AND ${keysCount(keysMost)} ${read === 'keys' ? '<' : '>='} ${params.add(keysMost)})`;
}

type Row = { k: number | string; x: string | number | null; keys: number | string | null };
