import { scopeWhere } from './plan-sql.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * Reading a level's hits costs about 5 µs a candidate of its index test (fetched and tested), a
 * row walked in id order about 1.4 µs, and about 0.45 of a loose level's candidates are hits (at
 * 100,000 records, scripts/bench-search.ts, "quartrly reprot" at 8 of 15: 1,857 hits among 4,083
 * candidates, read in 10 to 20 ms; the page after 1,000 hits walks 5,549 rows in 5 to 8 ms).
 */
const LIST_US = 5;
const ROW_US = 1.4;
const HIT_SHARE = 0.45;
/** The pages at one snapshot a list is read for: the read comes on a level's second page there (pg-level-lists.ts), and pays off within a few more. */
const LIST_PAGES = 4;
/** The most candidates a level's hits are read from, whatever the table's size. */
export const LEVEL_HITS_MOST = 10_000;

/**
 * The rows of a level named by its kept hits (pg-level-lists.ts), each looked up by primary key:
 * `ids` are the hits after the cursor, in id order, at most the rows the statement needs, all of
 * them rows of the level in the snapshot the statement reads, so none is tested again.
 */
export function levelHitRows(ctx: CompileContext, select: string, ids: readonly string[]): string {
  const { d, params } = ctx;
  const key = `l.connector_id = ${params.add(ctx.scope.connectorId)} AND l.entity = ${params.add(ctx.scope.entity)} AND l.id = k.id`;
  return `SELECT ${select} FROM unnest(${params.add(ids)}::text[]) AS k(id) CROSS JOIN LATERAL (SELECT * FROM ${d.table} AS l WHERE ${key} OFFSET 0) AS r`;
}

/**
 * The statement that reads a level's hits in id order (PostgreSQL, pg-level-lists.ts): its one
 * row holds how many candidates of the level's index test `narrow` were read, the most worth
 * reading, and the ids among them that pass the level's exact test `filter`, sorted by id. The
 * candidates are read up to one more than that most, so a common level costs a bounded read and
 * is found to have too many: C candidates are worth reading for the pages of the level that would
 * each walk page / (HIT_SHARE x C / N) rows of the N in the table, which holds while C <=
 * sqrt(LIST_PAGES x ROW_US / LIST_US / HIT_SHARE x page x N) (about 5,000 at 100,000 records,
 * 16,000 at 1,000,000: a level that holds more is walked). `forced` (tests): that most instead.
 */
export function levelHitsSql(
  ctx: CompileContext,
  filter: (inner: CompileContext) => string,
  narrow: (inner: CompileContext) => string,
  need: number,
  forced?: number,
): string {
  const { d, params } = ctx;
  const factor = (LIST_PAGES * ROW_US) / LIST_US / HIT_SHARE;
  const most =
    forced !== undefined
      ? `${params.add(forced)}::bigint`
      : `(SELECT least(${params.add(LEVEL_HITS_MOST)}::bigint, greatest(${params.add(need)}::bigint, floor(sqrt(${factor} * greatest(c.reltuples, 0) * ${params.add(need)}::float8))::bigint)) FROM pg_class AS c WHERE c.oid = ${params.add(d.table)}::regclass)`;
  const candidates = `SELECT r.id AS id, ${filter({ ...ctx, probe: true })} AS hit FROM ${d.table} AS r WHERE ${scopeWhere(ctx, 'r')} AND ${narrow(ctx)} LIMIT ${most} + 1`;
  return `SELECT count(*)::int AS candidates, ${most}::int AS most, coalesce(array_agg(c.id ORDER BY c.id COLLATE "C") FILTER (WHERE c.hit), '{}') AS ids FROM (${candidates}) AS c`;
}
