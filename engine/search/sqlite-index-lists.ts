import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_PATHS_TABLE, TEXT_ROW_SEQ_BITS } from '../store/index.js';
import { SqlParams } from './sql-params.js';
import { sqliteStatement } from './sqlite-statements.js';
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
}

/** Empty lists for one search. */
export const newIndexLists = (scope: SearchScope, most = INDEX_LIST_MOST): IndexLists => ({ scope, most, found: new Map(), wanted: new Map() });

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
 * costs a bounded read), and files them as found: the list, or 'many'.
 */
export function resolveIndexLists(db: BetterSqlite3.Database, lists: IndexLists): void {
  for (const [key, query] of lists.wanted) {
    const params = new SqlParams();
    const text = `${candidatesSql(query, lists.scope, params)} LIMIT ${params.add(lists.most + 1)}`;
    const { sql, params: values } = params.finish(text, 'sqlite');
    const seqs = sqliteStatement(db, sql)
      .pluck()
      .all(...values) as number[];
    lists.found.set(key, seqs.length > lists.most ? 'many' : seqs);
  }
  lists.wanted.clear();
}
