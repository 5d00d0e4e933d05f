import { orderBy, scopeWhere, type KeyColumn } from './plan-sql.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * Rows read in id order before the rest is left to the planner: enough for a page when a few
 * percent of rows pass (20 per hit asked for, at least 5,000), few enough to stay cheap when none do.
 */
const windowRows = (limit: number) => Math.max(5_000, 20 * (limit + 1));

const ID: KeyColumn = { slot: 'id', expression: 'r.id', direction: 'asc' };

/**
 * How a plan that knows its rows better shapes an id-ordered read. `windowSize`: the rows read in
 * id order first (windowRows by default). `narrow`: an index test every row passing the filter
 * passes too; rows past the window are then its candidates, put in id order first (by reference
 * to their row, which is fetched and tested only when reached), so a page tests about its own
 * rows plus the candidates between them, not every candidate. `nearless`: with `narrow`, no
 * window at all (its candidates are few and already known, SQLite's read-ahead lists).
 */
export interface WindowOptions {
  windowSize?: number;
  narrow?: (ctx: CompileContext) => string;
  nearless?: boolean;
}

/** Where an id-ordered read starts: at the scope's first id, after a cursor's id, or nowhere. */
export type IdStart = { after: string | null } | 'nothing';

/**
 * The first limit + 1 records in id order (from `start`) that pass `filter`, with the columns
 * `select` (over the record row `r`). When `split` (the filter asks a text index), in two parts
 * joined by UNION ALL, which stops as soon as the page is full:
 *
 * 1. the next few thousand rows in id order (`windowSize`, windowRows unless a plan knows better;
 *    up to the id that ends that window), each tested in
 *    turn: when the filter is common the page fills here, at a bounded cost;
 * 2. the rows past the window, found however the planner likes (an index, for a rare filter).
 *
 * Part 1 is compiled with `probe` set, so index filters test rows instead of producing them, and
 * it walks the window in id order, stopping at a full page: SQLite does so on its own; PostgreSQL
 * is made to, by filtering a subquery that takes the window itself from the primary key (left to
 * itself it fetches and sorts the whole window, or every candidate). The split exists
 * because neither planner can tell how many rows a text index query selects (SQLite does not ask;
 * PostgreSQL multiplies per-trigram selectivities and takes common words for rare ones), and a
 * wrong guess either walks every row in id order or fetches and sorts every candidate.
 */
export function idOrderedRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  start: IdStart,
  split: boolean,
  options: WindowOptions = {},
): string {
  const { d, params } = ctx;
  const id = (alias: string) => d.keyColumn('id', `${alias}.id`);
  const after = (alias: string) =>
    start === 'nothing' ? ' AND 1 = 0' : start.after === null ? '' : ` AND ${id(alias)} > ${d.keyParam('id', start.after, ctx)}`;
  const from = (alias: string) => `FROM ${d.table} AS ${alias} WHERE ${scopeWhere(ctx, alias)}${after(alias)}`;
  const order = (alias: string) => orderBy([{ ...ID, expression: `${alias}.id` }], ctx);
  const page = () => params.add(limit + 1);
  const { narrow, windowSize = windowRows(limit) } = options;
  // Candidates named by the index, in id order, each tested when it is reached: the page's rows are tested, not every candidate's.
  const candidates = (bound: string) =>
    `SELECT ${select} FROM (SELECT ${d.tupleId} AS tid, r.id AS id ${from('r')}${bound} AND ${narrow?.(ctx)} ORDER BY ${order('r')}${d.fence}) AS n ${d.candidateRow(ctx)} WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('n')} LIMIT ${page()}`;
  if (narrow && options.nearless) return candidates('');
  if (!split) return `SELECT ${select} ${from('r')} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page()}`;
  const window = `SELECT w.id AS id ${from('w')} ORDER BY ${order('w')} LIMIT ${params.add(windowSize)}`;
  const end = `(SELECT max(e.id) FROM (${window}) AS e)`;
  const near = d.windowAsSubquery
    ? `SELECT ${select} FROM (SELECT * ${from('w')} ORDER BY ${order('w')} LIMIT ${params.add(windowSize)}) AS r WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page()}`
    : `SELECT ${select} ${from('r')} AND ${id('r')} <= ${end} AND ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page()}`;
  const far = narrow
    ? candidates(` AND ${id('r')} > ${end}`)
    : `SELECT ${select} ${from('r')} AND ${id('r')} > ${end} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page()}`;
  return `SELECT * FROM (${near}) AS near UNION ALL SELECT * FROM (${far}) AS far`;
}
