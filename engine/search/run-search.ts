import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { encodeCursor, keySlots } from './cursor.js';
import { projector } from './project-fields.js';
import { keyRangeFor } from './range-keys.js';
import { levelRows } from './run-levels.js';
import { scoringNodes } from './scoring-nodes.js';
import { planSearch } from './search-plan.js';
import { compileRead, postgresRangeRows, sqliteRows, type SearchDatabase, type SearchRow } from './search-rows.js';
import { sortKeysFor } from './sort-keys.js';
import type { SearchDialect, SearchHit, SearchRequest, SearchResult, SearchScope } from './types.js';
import type { WalkRows } from './sql-dialect.js';

export type { SearchDatabase };

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
  /** Internal (tests): the rows a score level reads in id order before it asks the index (default: plan-levels.ts levelWindow). */
  levelWindowRows?: number;
  /**
   * Internal (tests): the most candidates SQLite keeps in id order for a loose score level (default LEVEL_LIST_MOST, sqlite-level-lists.ts; 0 never),
   * and PostgreSQL reads a loose level's hits from (default: those worth reading, plan-level-hits.ts; 0 never).
   */
  levelListMost?: number;
}

/** Where the keyset columns start in a row (id, data, score, k0..kN: compile-search.ts). */
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
  const rangeRead = await keyRangeFor(db, dialect, scope, request, options.startSortKeys ?? true, options.rangeKeysLimit, options.rangeValuesMost);
  const levels = planSearch(request).kind === 'levels';
  // A levels read takes no guess: it is one (run-levels.ts) or several statements of its own.
  const keyRange = levels && rangeRead.guess ? await rangeRead.guess.probe() : rangeRead.range;
  const read = {
    sortKeys,
    keyRange,
    listMost: options.indexListMost,
    levelListMost: options.levelListMost,
    levelWindowRows: options.levelWindowRows,
    walkRows: options.walkRows,
  };
  // Rows as arrays (id, data, score, k0..kN: compile-search.ts), not objects: a page of 1,000 hits builds 1,000 fewer objects.
  const rows = levels
    ? await levelRows(db, dialect, scope, request, read)
    : dialect === 'sqlite'
      ? sqliteRows(db as BetterSqlite3.Database, compileRead(db, dialect, scope, request, read))
      : await postgresRangeRows(db as pg.Pool, rangeRead, (range) => compileRead(db, dialect, scope, request, { ...read, keyRange: range }));
  const slots = keySlots(request.sort, scoringNodes(request.filter).length > 0);

  const count = Math.min(rows.length, request.limit);
  const last = rows[count - 1];
  const next_cursor =
    rows.length > request.limit && last
      ? encodeCursor(
          request.queryHash,
          slots.map((_, i) => last[KEYS + i] as string | number),
        )
      : null;
  const project = projector(request.fields ?? Object.keys(request.searchable));
  const hits: SearchHit[] = new Array<SearchHit>(count);
  for (let i = 0; i < count; i++) {
    const [id, data, score] = rows[i] as SearchRow;
    hits[i] = { id: id as string, score: Number(score), data: project((typeof data === 'string' ? JSON.parse(data) : data) as Record<string, unknown>) };
  }
  return { hits, next_cursor, took_ms: Math.round((performance.now() - started) * 1000) / 1000 };
}
