import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { compileSearch, type CompiledSearch, type CompileOptions } from './compile-search.js';
import { newIndexLists, resolveIndexLists, type IndexLists } from './sqlite-index-lists.js';
import { preparedStatement } from './sqlite-statements.js';
import { queryWithoutJit } from './postgres-no-jit.js';
import { guarded, guardedRows } from './postgres-guarded.js';
import type { KeyRange } from './key-range.js';
import type { KeyRangeRead } from './range-keys.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';

/** A connection search can run on: better-sqlite3 for the embedded store, a pg pool or client otherwise. */
export type SearchDatabase = BetterSqlite3.Database | pg.Pool | pg.PoolClient | pg.Client;

/** A row of a compiled search as an array of its columns: id, data, score, then the keyset columns k0..kN (see CompiledSearch). */
export type SearchRow = unknown[];

/**
 * What compiling a statement takes besides the request, less the SQLite lists (compiled here):
 * SQLite's most candidates per list and per level list, and the data version a levels read reads
 * (run-levels.ts), without which no level list is kept.
 */
export type ReadOptions = Omit<CompileOptions, 'lists'> & {
  listMost?: number | undefined;
  levelListMost?: number | undefined;
  dataVersion?: string | undefined;
};

/**
 * Compiles the request; on SQLite, when it asks text indexes, reads their candidates ahead (a
 * bounded read each) and compiles again with them bound: each index query then runs once, and a
 * common one (too many candidates) costs a bounded read instead of a list of every candidate.
 * `shared` (SQLite): where the statements of one read in one snapshot keep their lists (run-levels.ts,
 * a statement per level), so each index query is read once per search, not once per level: an
 * id's equality read twice was half of a two-level keyword narrowed by it (1.5 to 2 ms each at
 * 100,000 records, scripts/bench-search.ts "keyword and eq").
 */
export function compileRead(
  db: SearchDatabase,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  read: ReadOptions,
  shared?: { lists?: IndexLists },
): CompiledSearch {
  const { listMost, levelListMost, dataVersion, ...options } = read;
  if (dialect !== 'sqlite') return compileSearch(request, dialect, scope, options);
  const lists = shared?.lists ?? newIndexLists(scope, { most: listMost, levelMost: levelListMost, version: dataVersion }, db as BetterSqlite3.Database);
  if (shared) shared.lists = lists;
  const first = compileSearch(request, dialect, scope, { ...options, lists });
  if (lists.wanted.size === 0 && lists.levelWanted.size === 0) return first;
  resolveIndexLists(db as BetterSqlite3.Database, lists);
  return compileSearch(request, dialect, scope, { ...options, lists });
}

/** Runs one SQLite statement through the kept prepared statements (sqlite-statements.ts), synchronously, so a read's statements have the connection to themselves. */
export function sqliteRows(db: BetterSqlite3.Database, compiled: CompiledSearch): SearchRow[] {
  return preparedStatement(db, compiled.sql)
    .raw(true)
    .all(...compiled.params) as SearchRow[];
}

/**
 * Runs one PostgreSQL statement (JIT off: postgres-no-jit.ts) on a pool or on a connection a read
 * holds (run-levels.ts keeps one for its transaction); one whose plan fits every value is kept
 * named on the connection (postgres-statements.ts).
 */
export async function postgresRows(db: pg.Pool | pg.PoolClient | pg.Client, compiled: CompiledSearch): Promise<SearchRow[]> {
  return (await queryWithoutJit<SearchRow>(db, compiled.sql, compiled.params, compiled.keepPlan)).rows;
}

/**
 * Runs a PostgreSQL read of a required range (range-keys.ts KeyRangeRead): compiled for the range
 * read as guessed and guarded by its check, so the range's probe needs no statement of its own;
 * when the check fails (a write since moved the range's values or keys), the probe runs and the
 * read is compiled anew for what it found.
 */
export async function postgresRangeRows(
  db: pg.Pool | pg.PoolClient | pg.Client,
  read: KeyRangeRead,
  compile: (keyRange: KeyRange | undefined) => CompiledSearch,
): Promise<SearchRow[]> {
  if (!read.guess) return postgresRows(db, compile(read.range));
  const rows = guardedRows(await postgresRows(db, guarded(compile(read.range), read.guess.guard)));
  return rows ?? postgresRows(db, compile(await read.guess.probe()));
}
