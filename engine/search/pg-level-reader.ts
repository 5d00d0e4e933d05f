import type pg from 'pg';
import { compileLevelHits, type CompiledSearch } from './compile-search.js';
import { levelStatement, type LevelStatement } from './pg-level-compiles.js';
import { foundHits, keptHits, listedLevelRows } from './pg-level-lists.js';
import { guardedRows } from './postgres-guarded.js';
import type { ScoreLevel } from './score-levels.js';
import { postgresRows, type ReadOptions, type SearchRow } from './search-rows.js';
import type { AbsentGrams, TermShares } from './sql-dialect.js';
import type { SearchRequest, SearchScope } from './types.js';

/**
 * One statement of a levels read: its levels, and the rows it stops at; `hits`: the first hits of
 * its last level, kept for this snapshot (KeptHits), which stand for that level's read.
 */
export type LevelRead = { levels: readonly ScoreLevel[]; need: number; hits?: readonly string[] };

/** A level's hits kept for the read's snapshot (pg-level-lists.ts), when the pool has them. */
export type KeptHits = (absent: AbsentGrams | undefined, level: ScoreLevel) => readonly string[] | undefined;

/** What a PostgreSQL levels read holds for all its statements: its connection, pool, snapshot and statistics, and the search. */
export interface LevelReader {
  client: pg.PoolClient;
  pool: object;
  /** pg_current_snapshot() of the read's REPEATABLE READ transaction; undefined (not read): no level's hits are kept or read. */
  snapshot: string | undefined;
  termShares: TermShares;
  scope: SearchScope;
  request: SearchRequest;
  read: ReadOptions;
}

/** The grams no record holds, in an order that does not follow the order they were found in. */
const sortedAbsent = (absent: AbsentGrams | undefined) => absent && [...absent].map(([path, grams]) => [path, [...grams].sort()]).sort();

/** Everything a level's hits follow from but the data: scope, filter, level, absent grams, and the most a test lets be read. */
function hitsKey(reader: LevelReader, absent: AbsentGrams | undefined, level: ScoreLevel): string {
  const { scope, request, read } = reader;
  return JSON.stringify([scope.connectorId, scope.entity, request.filter, [level], sortedAbsent(absent) ?? null, read.levelListMost ?? null]);
}

/** The hits this pool keeps of a level for the read's snapshot (pg-level-lists.ts keptHits), for a statement to read with the level before it. */
export function keptHitsOf(reader: LevelReader): KeptHits {
  const { snapshot } = reader;
  return (absent, level) =>
    reader.read.levelListMost === 0 || snapshot === undefined ? undefined : keptHits(reader.pool, hitsKey(reader, absent, level), snapshot);
}

/**
 * The rows of one statement of a PostgreSQL levels read (run-levels.ts), or undefined when `wrap`
 * checks a guess that failed (then it read nothing). Its statement is compiled once per query
 * (pg-level-compiles.ts); a statement of one listable level (CompiledSearch.listable) reads the
 * level's hits kept for this snapshot instead where the pool has them (pg-level-lists.ts), and
 * reads them on the level's second read at a snapshot. Why here: both kinds of statement are
 * shaped alike by the guess and its check, and the read's loop stays the same.
 */
export async function levelReaderRows(
  reader: LevelReader,
  absent: AbsentGrams | undefined,
  levels: LevelRead,
  wrap?: LevelStatement['wrap'],
): Promise<SearchRow[] | undefined> {
  const { client, scope, request, read, termShares } = reader;
  const statement = (hits?: readonly string[]) =>
    levelStatement(
      scope,
      request,
      { levels: levels.levels, need: levels.need, absent, termShares, ...(wrap ? { wrap } : {}), ...(hits ? { hits } : {}) },
      read,
    );
  const run = async (compiled: CompiledSearch) => (wrap ? guardedRows(await postgresRows(client, compiled)) : postgresRows(client, compiled));
  if (levels.hits) return run(statement(levels.hits));
  const compiled = statement();
  const { snapshot } = reader;
  const most = read.levelListMost;
  if (!compiled.listable || most === 0 || snapshot === undefined) return run(compiled);
  const [cursorScore, cursorId] = request.cursor ?? [];
  return listedLevelRows({
    owner: reader.pool,
    snapshot,
    key: hitsKey(reader, absent, levels.levels[0] as ScoreLevel),
    after: cursorScore === levels.levels[0]?.score ? (cursorId as string) : null,
    need: levels.need,
    rows: (hits) => run(hits ? statement(hits) : compiled),
    readHits: async () => {
      const compiledRead = compileLevelHits(request, scope, { ...read, ...(absent ? { absent } : {}), termShares, levels }, most);
      const hitsRead = { ...compiledRead, slots: [], keepPlan: false };
      return foundHits(await run(wrap ? wrap.wrap(hitsRead) : hitsRead));
    },
  });
}
