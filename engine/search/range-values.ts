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
 * for the next value past the last), never a walk over the range's keys.
 */
export async function rangeValues(db: Database, dialect: SearchDialect, range: KeyRange, most: number): Promise<(string | number)[]> {
  const params = new SqlParams();
  const d = dialect === 'sqlite' ? sqliteDialect : postgresDialect;
  const slot = range.rank === 0 ? 'number' : 'string';
  const column = d.keyColumn(slot, rangeColumn(range));
  const where = keyRangeWhere(range, { d, params });
  const next = (after: string) => `(SELECT ${column} FROM ${keysTable(range)} AS s WHERE ${where}${after} ORDER BY ${column} LIMIT 1)`;
  const text = `WITH RECURSIVE v(x, n) AS (SELECT ${next('')}, 1 UNION ALL SELECT ${next(` AND ${column} > v.x`)}, v.n + 1 FROM v WHERE v.x IS NOT NULL AND v.n <= ${params.add(most)}) SELECT x FROM v WHERE x IS NOT NULL`;
  const { sql, params: values } = params.finish(text, dialect);
  const rows =
    dialect === 'sqlite'
      ? (preparedStatement(db as BetterSqlite3.Database, sql).all(...values) as { x: string | number }[])
      : (await (db as pg.Pool).query<{ x: string | number }>(sql, values)).rows;
  return rows.map((row) => row.x);
}
