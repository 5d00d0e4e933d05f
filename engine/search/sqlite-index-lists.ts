import { KeptPerOwner } from './kept-per-owner.js';
import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_PATHS_TABLE, TEXT_ROW_SEQ_BITS } from '../store/index.js';
import { SqlParams } from './sql-params.js';
import { LEVEL_LIST_MOST, readLevelList, type IdOrderedList, type LevelListQuery } from './sqlite-level-lists.js';
import { preparedStatement } from './sqlite-statements.js';
import type { SearchScope } from './types.js';

/**
 * The most candidates of a SQLite text index query that are read ahead and bound into the search
 * as a list. Reading them costs about as much per candidate as the exact test costs per row
 * (measured at 100,000 records: a 12,000-candidate list 8 to 11 ms, the exact test of an array
 * element 1 to 1.5 µs a row), and a value with more candidates than this fills a page within a
 * few thousand rows tested in id order without them.
 */
export const INDEX_LIST_MOST = 2_000;

/** One index query of a search: its table, field path and FTS5 MATCH text. */
interface ListQuery {
  table: string;
  path: string;
  match: string;
}

/**
 * The text index queries of one SQLite search, read ahead (resolveIndexLists): each one's
 * candidate record seqs when there are at most INDEX_LIST_MOST, else 'many'. The compiler asks
 * here first (sqliteDialect.indexFilter) and notes the queries it has not seen in `wanted`.
 */
export interface IndexLists {
  readonly scope: SearchScope;
  /** The most candidates bound as a list (INDEX_LIST_MOST unless a test lowers it). */
  readonly most: number;
  readonly found: Map<string, readonly number[] | 'many'>;
  readonly wanted: Map<string, ListQuery>;
  /** The connection's remembered 'many' verdicts (by verdictKey), each with the time it expires. */
  readonly remembered?: Map<string, number>;
  /** The connection, whose loose score levels' lists in id order are kept (sqlite-level-lists.ts). */
  readonly db?: object;
  /** The data version the search reads (sqlite-data-version.ts); without it no level list is read or kept. */
  readonly version?: string;
  /** The most candidates a level list holds (LEVEL_LIST_MOST unless a test sets it; 0: none is read). */
  readonly levelMost: number;
  /** Whether fewer are read where the table is small for the page (sqlite-level-lists.ts worthReading): unless a test sets levelMost. */
  readonly levelBalanced: boolean;
  /** Level lists in id order (or 'many') by listKey, and those still wanted. */
  readonly levels: Map<string, IdOrderedList | 'many'>;
  readonly levelWanted: Map<string, LevelListQuery>;
}

/**
 * How long a connection remembers that an index query has more than `most` candidates. Why: the
 * read that finds it out costs a bounded read of `most` + 1 candidates per query (about 0.6 ms each
 * at 100,000 records), and every page of a query, or the same filter asked again, would read it
 * again. A verdict that went stale costs no exactness: 'many' leaves rows to their exact test, or
 * asks the index within the statement, as the compiler does without lists.
 */
const MANY_KEPT_MS = 30_000;
/** The most verdicts a connection remembers (the oldest go first). */
const MANY_KEPT_MOST = 256;

const manyUntil = new WeakMap<BetterSqlite3.Database, Map<string, number>>();

const verdictKey = (lists: Pick<IndexLists, 'scope' | 'most'>, key: string) => JSON.stringify([lists.scope.connectorId, lists.scope.entity, lists.most, key]);

/** How one search reads ahead: its most candidates per list, and for level lists the data version it reads and their most candidates. */
export interface ListOptions {
  most?: number | undefined;
  version?: string | undefined;
  levelMost?: number | undefined;
}

/**
 * Empty lists for one search on `db`, which remembers the queries it lately found to have many
 * candidates, and keeps level lists per data version.
 */
export function newIndexLists(scope: SearchScope, options: ListOptions = {}, db?: BetterSqlite3.Database): IndexLists {
  const { most = INDEX_LIST_MOST, version, levelMost } = options;
  let remembered = db && manyUntil.get(db);
  if (db && !remembered) manyUntil.set(db, (remembered = new Map()));
  return {
    scope,
    most,
    found: new Map(),
    wanted: new Map(),
    levelMost: levelMost ?? LEVEL_LIST_MOST,
    levelBalanced: levelMost === undefined,
    levels: new Map(),
    levelWanted: new Map(),
    ...(remembered ? { remembered } : {}),
    ...(db ? { db } : {}),
    ...(version ? { version } : {}),
  };
}

/** What a search knows of an index query: its candidates, 'many' (read by this search or remembered), or undefined (not read). */
export function foundList(lists: IndexLists, key: string): readonly number[] | 'many' | undefined {
  const found = lists.found.get(key);
  if (found !== undefined) return found;
  const until = lists.remembered?.get(verdictKey(lists, key));
  if (until === undefined || until < Date.now()) return undefined;
  lists.found.set(key, 'many');
  return 'many';
}

/** The key of an index query among a search's lists. */
export const listKey = (query: ListQuery): string => JSON.stringify([query.table, query.path, query.match]);

/**
 * The SQL of an index query's candidates (record seqs), over the field's rowid range; an unknown
 * path gives NULL bounds, hence no rows.
 */
export function candidatesSql(query: ListQuery, scope: SearchScope, params: SqlParams): string {
  const pathId = () =>
    `(SELECT id FROM ${RECORD_PATHS_TABLE} WHERE connector_id = ${params.add(scope.connectorId)} AND entity = ${params.add(scope.entity)} AND path = ${params.add(query.path)})`;
  const { table } = query;
  return `SELECT rowid & ${2 ** TEXT_ROW_SEQ_BITS - 1} FROM ${table} WHERE ${table} MATCH ${params.add(query.match)} AND rowid >= (${pathId()} << ${TEXT_ROW_SEQ_BITS}) AND rowid < ((${pathId()} + 1) << ${TEXT_ROW_SEQ_BITS})`;
}

/**
 * Reads every wanted index query's candidates, at most `most` + 1 each (so a common term
 * costs a bounded read), and files them as found: the list, or 'many'; likewise each wanted
 * level list, in id order (sqlite-level-lists.ts).
 */
export function resolveIndexLists(db: BetterSqlite3.Database, lists: IndexLists): void {
  for (const [key, query] of lists.wanted) {
    const held = keptFound(lists, key);
    if (held !== undefined) {
      lists.found.set(key, held);
      continue;
    }
    const params = new SqlParams();
    const text = `${candidatesSql(query, lists.scope, params)} LIMIT ${params.add(lists.most + 1)}`;
    const { sql, params: values } = params.finish(text, 'sqlite');
    const seqs = preparedStatement(db, sql)
      .pluck()
      .all(...values) as number[];
    const found = seqs.length > lists.most ? 'many' : seqs;
    lists.found.set(key, found);
    keepFound(lists, key, found);
    if (seqs.length > lists.most && lists.remembered) remember(lists.remembered, verdictKey(lists, key));
  }
  lists.wanted.clear();
  for (const [key, query] of lists.levelWanted) {
    if (lists.version)
      lists.levels.set(key, readLevelList(db, lists.scope, lists.levelMost, query, lists.version, lists.levelBalanced ? query.need : undefined));
  }
  lists.levelWanted.clear();
}

/**
 * Most index lists a connection keeps at the data version they were read at. Why keep them: a
 * fuzzy query's candidates cost an FTS5 read of every trigram posting list it names (1.5 of a
 * 4.4 ms fuzzy search at 100,000 records, scripts/bench-search.ts "fuzzy"), and the next page of
 * the query, or the query asked again, names the same ones. At the same version (sqlite-data-version.ts:
 * nothing was written since, on any connection) they are the same candidates. A list holds at most
 * INDEX_LIST_MOST seqs.
 */
const KEPT_LISTS = 32;

const keptLists = new KeptPerOwner<{ version: string; found: readonly number[] | 'many' }>(KEPT_LISTS);

/** The list this connection read for `key` at the data version this search reads, if it kept one. */
function keptFound(lists: IndexLists, key: string): readonly number[] | 'many' | undefined {
  if (!lists.db || !lists.version) return undefined;
  const held = keptLists.get(lists.db, verdictKey(lists, key));
  return held?.version === lists.version ? held.found : undefined;
}

/** Keeps what a search read for `key` at its data version, as the newest (the oldest past KEPT_LISTS go); nothing without a version. */
function keepFound(lists: IndexLists, key: string, found: readonly number[] | 'many'): void {
  if (!lists.db || !lists.version) return;
  keptLists.set(lists.db, verdictKey(lists, key), { version: lists.version, found });
}

/** Files a 'many' verdict until MANY_KEPT_MS from now, as the newest; the oldest past MANY_KEPT_MOST go. */
function remember(remembered: Map<string, number>, key: string): void {
  remembered.delete(key);
  remembered.set(key, Date.now() + MANY_KEPT_MS);
  if (remembered.size > MANY_KEPT_MOST) remembered.delete(remembered.keys().next().value as string);
}
