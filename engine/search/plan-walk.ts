import { orderBy, scopeWhere, type KeyColumn } from './plan-sql.js';
import type { CompileContext } from './sql-dialect.js';

/** Rows the first walk tests in id order: 10 per row of the page, at least 1,000 (about 0.5 ms on PostgreSQL). */
export const firstWalkRows = (limit: number) => Math.max(1_000, 10 * (limit + 1));

/**
 * How much dearer a candidate the text index yields is than a row tested in id order, on
 * PostgreSQL: the index fetches and tests every candidate in the table before the page is sorted
 * out (its cost grows with the table times the filter's density d), a walk tests the rows it needs
 * (page / d). The two meet where a walk needs sqrt(COST_RATIO x table rows x page) rows, which is
 * the longest walk worth taking: measured at 1,000,000 records (scripts/bench-search.ts, backend
 * CPU, like shapes) a walk tests a row in about 1.2 us and the index visits a candidate in about 3.
 */
export const COST_RATIO = 2.5;

const ID: KeyColumn = { slot: 'id', expression: 'r.id', direction: 'asc' };

/**
 * PostgreSQL's id-ordered read of a filter that asks a text index (see idOrderedRows), in three
 * parts joined by UNION ALL, each a range of ids after the last, which stops as soon as the page
 * is full:
 *
 * 1. `near`: the first firstWalkRows rows in id order, each tested (dense filters end here), whose
 *    hits also tell how dense the filter is;
 * 2. `mid`: when those hits say the page would fill within the walk budget (see COST_RATIO, with
 *    the planner's row count of the table), the walk goes on for that many rows;
 * 3. `far`: the rows past the walked ones, through the text index (`far`, given the SQL of the id
 *    they start after: a plan that narrows the index's candidates and sorts them by id before
 *    their rows are read, plan-window.ts; else the filter, left to the planner).
 *
 * The decision is a one-time filter over the near hits (a materialized CTE), so the statement
 * stays one, and every part is exact: the page is the same whichever parts run. Windows are
 * taken from the primary key in a subquery and filtered after (left to itself, the planner fetches
 * and sorts the whole window, or every candidate).
 */
export function walkThenIndexRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  after: string,
  far?: (start: string) => string,
): string {
  const { d, params } = ctx;
  const scope = (alias: string) => `${d.table} AS ${alias} WHERE ${scopeWhere(ctx, alias)}`;
  const order = (alias: string) => orderBy([{ ...ID, expression: `${alias}.id` }], ctx);
  const id = (alias: string) => d.keyColumn('id', `${alias}.id`);
  const page = params.add(limit + 1);
  const first = `${params.add(ctx.walkRows?.first ?? firstWalkRows(limit))}::bigint`;
  const budget =
    ctx.walkRows?.budget === undefined
      ? `(SELECT greatest(${first}, floor(sqrt(${COST_RATIO} * greatest(c.reltuples, 0) * ${page}::float8)))::bigint FROM pg_class AS c WHERE c.oid = ${params.add(d.table)}::regclass)`
      : `${params.add(ctx.walkRows.budget)}::bigint`;
  const walk = (from: string, rows: string) =>
    `SELECT ${select} FROM (SELECT * FROM ${from} ORDER BY ${order('w')} LIMIT ${rows}) AS r WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page}`;
  const lastOf = (from: string, rows: string) => `(SELECT max(e.id) FROM (SELECT w.id AS id FROM ${from} ORDER BY ${order('w')} LIMIT ${rows}) AS e)`;
  const nearFrom = `${scope('w')}${after}`;
  const nearEnd = lastOf(nearFrom, first);
  const midFrom = `${scope('w')} AND ${id('w')} > ${nearEnd}`;
  // The near hits fall short of a page here; at their density the rest of the page is expected within (page - hits) * first / hits rows.
  const goOn = `(SELECT n.hits > 0 AND (${page} - n.hits) * ${first} <= n.hits * ${budget} FROM (SELECT count(*) AS hits FROM near) AS n)`;
  const walked = `(SELECT g.go FROM go_on AS g)`;
  const farStart = `CASE WHEN ${walked} THEN ${lastOf(midFrom, budget)} ELSE ${nearEnd} END`;
  const rest = far ? far(farStart) : `SELECT ${select} FROM ${scope('r')} AND ${id('r')} > ${farStart} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page}`;
  return [
    `WITH near AS MATERIALIZED (${walk(nearFrom, first)}), go_on AS MATERIALIZED (SELECT ${goOn} AS go)`,
    `SELECT * FROM near`,
    `UNION ALL SELECT * FROM (${walk(midFrom, budget)}) AS mid WHERE ${walked}`,
    `UNION ALL SELECT * FROM (${rest}) AS far`,
  ].join(' ');
}
