import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { compileSearch, type CompiledSearch } from './compile-search.js';
import type { KeyRange } from './key-range.js';
import type { KeptSort } from './sort-key-target.js';
import type { WalkRows } from './sql-dialect.js';
import { newIndexLists, resolveIndexLists } from './sqlite-index-lists.js';
import { encodeCursor } from './cursor.js';
import { projector } from './project-fields.js';
import { keyRangeFor } from './range-keys.js';
import { sortKeysFor } from './sort-keys.js';
import type { SearchDialect, SearchHit, SearchRequest, SearchResult, SearchScope } from './types.js';
import { preparedStatement } from './sqlite-statements.js';
import { queryWithoutJit } from './postgres-no-jit.js';

/** A connection search can run on: better-sqlite3 for the embedded store, a pg pool or client otherwise. */
export type SearchDatabase = BetterSqlite3.Database | pg.Pool | pg.PoolClient | pg.Client;

/** How a search may touch the database beyond reading. */
export interface RunSearchOptions {
  /** Start keeping the sort keys of a sortable path on its first sorted search (default true; false on a read-only connection). */
  startSortKeys?: boolean;
  /** Internal (tests): the most keys a range may hold to be read from its kept keys (default rangeKeysLimit, range-keys.ts). */
  rangeKeysLimit?: number;
  /** Internal (tests): the most distinct values a range may hold to be read value by value (default RANGE_VALUES_MOST, range-values.ts; 0 never). */
  rangeValuesMost?: number;
  /** Internal (tests): the most text index candidates SQLite binds as a list (default INDEX_LIST_MOST, sqlite-index-lists.ts). */
  indexListMost?: number;
  /** Internal (tests): PostgreSQL's walk lengths in id order before it asks a text index (default: worked out, plan-walk.ts). */
  walkRows?: WalkRows;
}

/** A result row: id, data, score, then the keyset columns k0..kN. */
type Row = unknown[];
/** Where the keyset columns start in a row. */
const KEYS = 3;

/**
 * Runs a validated search over the record table and shapes SPEC.md's result: hits with id, score
 * and (projected) data, the keyset cursor of the last hit when more records follow, and the
 * measured time. A sort by a sortable path reads its kept keys (sort-keys.ts), started here on first use,
 * and so may a range on one (range-keys.ts).
 */
export async function runSearch(
  db: SearchDatabase,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  options: RunSearchOptions = {},
): Promise<SearchResult> {
  const started = performance.now();
  const sortKeys = await sortKeysFor(db, dialect, scope, request, options.startSortKeys ?? true);
  const keyRange = await keyRangeFor(db, dialect, scope, request, options.startSortKeys ?? true, options.rangeKeysLimit, options.rangeValuesMost);
  const compiled = compileRead(db, dialect, scope, request, { sortKeys, keyRange, listMost: options.indexListMost, walkRows: options.walkRows });
  // Rows as arrays (id, data, score, k0..kN: compile-search.ts), not objects: a page of 1,000 hits builds 1,000 fewer objects.
  const rows =
    dialect === 'sqlite'
      ? (preparedStatement(db as BetterSqlite3.Database, compiled.sql)
          .raw(true)
          .all(...compiled.params) as Row[])
      : (await queryWithoutJit<Row>(db as pg.Pool, compiled.sql, compiled.params)).rows;

  const count = Math.min(rows.length, request.limit);
  const last = rows[count - 1];
  const next_cursor =
    rows.length > request.limit && last
      ? encodeCursor(
          request.queryHash,
          compiled.slots.map((_, i) => last[KEYS + i] as string | number),
        )
      : null;
  const project = projector(request.fields ?? Object.keys(request.searchable));
  const hits: SearchHit[] = new Array<SearchHit>(count);
  for (let i = 0; i < count; i++) {
    const [id, data, score] = rows[i] as Row;
    hits[i] = { id: id as string, score: Number(score), data: project((typeof data === 'string' ? JSON.parse(data) : data) as Record<string, unknown>) };
  }
  return { hits, next_cursor, took_ms: Math.round((performance.now() - started) * 1000) / 1000 };
}

/**
 * Compiles the request; on SQLite, when it asks text indexes, reads their candidates ahead (a
 * bounded read each) and compiles again with them bound: each index query then runs once, and a
 * common one (too many candidates) costs a bounded read instead of a list of every candidate.
 */
function compileRead(
  db: SearchDatabase,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  plan: { sortKeys: KeptSort | undefined; keyRange: KeyRange | undefined; listMost: number | undefined; walkRows: WalkRows | undefined },
): CompiledSearch {
  const { sortKeys, keyRange, listMost, walkRows } = plan;
  if (dialect !== 'sqlite') return compileSearch(request, dialect, scope, sortKeys, keyRange, undefined, walkRows);
  const lists = newIndexLists(scope, listMost, db as BetterSqlite3.Database);
  const first = compileSearch(request, dialect, scope, sortKeys, keyRange, lists);
  if (lists.wanted.size === 0) return first;
  resolveIndexLists(db as BetterSqlite3.Database, lists);
  return compileSearch(request, dialect, scope, sortKeys, keyRange, lists);
}
