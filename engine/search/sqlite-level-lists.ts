import { KeptPerOwner } from './kept-per-owner.js';
import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_TABLE } from '../store/index.js';
import { SqlParams } from './sql-params.js';
import { preparedStatement } from './sqlite-statements.js';
import { compareCodePoints } from './text-match.js';
import type { SearchScope } from './types.js';

/**
 * The most candidates of a loose score level's index query (plan-levels.ts) kept in id order for
 * the next pages. Reading them costs about 2 µs a candidate: at 100,000 records
 * (scripts/bench-search.ts, 4,083 candidates) the index query 3.4 to 4.8 ms, each candidate's id
 * 3.5 ms, their sort 0.3 ms. A deep page walks the level's window in id order at about 1.5 µs a row
 * instead (8.1 ms for the 5,400 rows that hold its 101 hits), up to 10,000 rows
 * (plan-levels.ts levelWindow); a level with more candidates than that is better met in id order.
 */
export const LEVEL_LIST_MOST = 10_000;

/** The share of a loose level's candidates that are its hits (about 0.6: at 100,000 records, 2,492 of 4,083). */
const HIT_SHARE = 0.6;
/** A row's test in id order, and a list's cost per candidate, in µs (see LEVEL_LIST_MOST). */
const ROW_US = 1.5;
const LIST_US = 2;
/** The pages a list is worth reading for: a paged level is read again, and a list is kept while nothing is written. */
const LIST_PAGES = 2;

/** Most lists kept per connection (the oldest go first): at LEVEL_LIST_MOST a list is a few hundred kilobytes. */
const KEPT = 16;

/** A level's candidates in id order: their record seqs, and their ids (to find where a cursor's id falls). */
export interface IdOrderedList {
  readonly seqs: readonly number[];
  readonly ids: readonly string[];
}

/** One index query to list: the candidates' SQL (sqlite-index-lists.ts candidatesSql) over `params`, and the rows a page needs of it. */
export interface LevelListQuery {
  readonly key: string;
  readonly candidates: (params: SqlParams) => string;
  readonly need: number;
}

/** What a connection knows of a level's list at a data version: the list, 'many', or 'seen' (a page started inside the level, none was read). */
type Kept = IdOrderedList | 'many' | 'seen';

const kept = new KeptPerOwner<{ version: string; found: Kept }>(KEPT);

/** Files what was found, as the newest (the oldest past KEPT go). */
function keep(db: object, key: string, version: string, found: Kept): void {
  kept.set(db, key, { version, found });
}

/** A list is kept by its scope, query and bounds: `balanced` when it was read at most worthReading candidates. */
const keptKey = (scope: SearchScope, most: number, balanced: boolean, key: string) => JSON.stringify([scope.connectorId, scope.entity, most, balanced, key]);

/**
 * What this connection found for an index query at this very data `version`
 * (sqlite-data-version.ts): nothing was written since, so its candidates and their ids are the
 * same. 'seen': a page started inside the level at this version and read no list.
 */
export function keptLevelList(db: object, scope: SearchScope, most: number, balanced: boolean, key: string, version: string): Kept | undefined {
  const entry = kept.get(db, keptKey(scope, most, balanced, key));
  return entry && entry.version === version ? entry.found : undefined;
}

/**
 * Notes that a page started inside a level at `version` without its list, which the next such
 * page at that version reads (sqliteDialect.levelList). The first reads none: with writes
 * between pages (a sync), every page is the first at its version, and the list would cost as
 * much again as the window it spares, for one page.
 */
export function levelSeen(db: object, scope: SearchScope, most: number, balanced: boolean, key: string, version: string): void {
  keep(db, keptKey(scope, most, balanced, key), version, 'seen');
}

/**
 * The most candidates worth reading for a level list when `need` rows make a page: those the
 * window would walk past for about LIST_PAGES pages. A level of C candidates (about P x C hits,
 * P about 0.6) among N rows fills a page in id order after need x N / (P x C) rows at ROW_US
 * each; its list costs C x LIST_US once, so it is worth reading while C <= sqrt(LIST_PAGES x
 * ROW_US / LIST_US x need x N / P). N is the record table's highest seq, which may overcount (rows
 * of other scopes, deleted rows) and then lets a larger list be read, never a wrong one.
 */
function worthReading(db: BetterSqlite3.Database, need: number, most: number): number {
  const rows = Number(preparedStatement(db, `SELECT coalesce(max(seq), 0) FROM ${RECORD_TABLE}`).pluck().get());
  return Math.min(most, Math.max(need, Math.floor(Math.sqrt(((LIST_PAGES * ROW_US) / LIST_US) * need * (rows / HIT_SHARE)))));
}

/**
 * How ids sort as the record table's id column compares them (BINARY: code point order). That is
 * JavaScript's `<` (UTF-16 code units) unless an id holds a character from U+D800 on, where the
 * two orders can differ: compareCodePoints then, which costs about 20 times as much.
 */
function byId(rows: ReadonlyArray<[number, string]>): (a: [number, string], b: [number, string]) => number {
  if (rows.some((row) => /[\uD800-\uFFFF]/.test(row[1]))) return (a, b) => compareCodePoints(a[1], b[1]);
  return (a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

/**
 * Reads an index query's candidates in id order, at most `most` of them (a common query costs a
 * bounded read of its candidates and is 'many'; with `need`, fewer: worthReading), and keeps the
 * answer on the connection for `version`. It runs in the read's snapshot (run-levels.ts), so the
 * list is that snapshot's.
 */
export function readLevelList(
  db: BetterSqlite3.Database,
  scope: SearchScope,
  most: number,
  query: LevelListQuery,
  version: string,
  need?: number,
): IdOrderedList | 'many' {
  const bound = need === undefined ? most : worthReading(db, need, most);
  const params = new SqlParams();
  const { sql, params: values } = params.finish(`${query.candidates(params)} LIMIT ${params.add(bound + 1)}`, 'sqlite');
  const seqs = preparedStatement(db, sql)
    .pluck()
    .all(...values) as number[];
  let found: IdOrderedList | 'many' = 'many';
  if (seqs.length <= bound) {
    // CROSS JOIN keeps the seqs outer: a rowid lookup each, in the order of the index.
    const rows = preparedStatement(db, `SELECT c.seq, c.id FROM json_each(?) AS k CROSS JOIN ${RECORD_TABLE} AS c ON c.seq = k.value`)
      .raw(true)
      .all(JSON.stringify(seqs)) as Array<[number, string]>;
    rows.sort(byId(rows));
    found = { seqs: rows.map((row) => row[0]), ids: rows.map((row) => row[1]) };
  }
  keep(db, keptKey(scope, most, need !== undefined, query.key), version, found);
  return found;
}

/** The seqs of a list whose ids come after `after` (all of them for null), in id order: where a cursor's page starts. */
export function seqsAfter(list: IdOrderedList, after: string | null): readonly number[] {
  if (after === null) return list.seqs;
  let low = 0;
  let high = list.ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareCodePoints(list.ids[middle] as string, after) <= 0) low = middle + 1;
    else high = middle;
  }
  return list.seqs.slice(low);
}
