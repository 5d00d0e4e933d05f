import { orderBy, scopeWhere, type KeyColumn } from './plan-sql.js';
import type { CompileContext } from './sql-dialect.js';
import { walkThenIndexRows } from './plan-walk.js';

/**
 * Rows read in id order before the rest is left to the planner: enough for a page when a few
 * percent of rows pass (20 per hit asked for, at least 5,000), few enough to stay cheap when none do.
 */
const windowRows = (limit: number) => Math.max(5_000, 20 * (limit + 1));

const ID: KeyColumn = { slot: 'id', expression: 'r.id', direction: 'asc' };

/** Where an id-ordered read starts: at the scope's first id, after a cursor's id, or nowhere. */
export type IdStart = { after: string | null } | 'nothing';

/** How an id-ordered read that asks a text index may go about it (see idOrderedRows). */
export interface TextReadWays {
  /** Every hit is among these record seqs (SQLite's bound index lists: bound-candidates.ts), or null. */
  readonly candidates: readonly number[] | null;
  /** Whether PostgreSQL may walk first and let the density it finds decide (plan-walk.ts), instead of a fixed window. */
  readonly walk: boolean;
}

/**
 * The first limit + 1 records in id order (from `start`) that pass `filter`, with the columns
 * `select` (over the record row `r`). When `split` (the filter asks a text index):
 *
 * - with `candidates` (SQLite, when its bound index lists hold every hit: bound-candidates.ts),
 *   those candidates sorted by id, each tested in turn until the page is full;
 * - on PostgreSQL with `walk`, a walk in id order whose length follows the filter's density, then
 *   the text index for the rest (plan-walk.ts; the keyed plan's, where it pays: the levels plan
 *   would plan one per level, 1 ms more of planning each, for filters that fill a page early);
 * - otherwise in two parts joined by UNION ALL, which stops as soon as the page is full: the next
 *   few thousand rows in id order (up to the id that ends that window), each tested in turn, so a
 *   common filter fills the page at a bounded cost; then the rows past the window, found however
 *   the planner likes (an index, for a rare filter).
 *
 * Rows read in id order are tested with `probe` set, so index filters test rows instead of
 * producing them. SQLite walks a window in id order and stops at a full page on its own;
 * PostgreSQL is made to, by filtering a subquery that takes the window itself from the primary
 * key (left to itself it fetches and sorts the whole window, or every candidate). The split exists
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
  ways: TextReadWays = { candidates: null, walk: false },
): string {
  const { d, params } = ctx;
  if (split && ways.candidates !== null) return candidateRows(ctx, limit, select, filter, start, ways.candidates);
  const id = (alias: string) => d.keyColumn('id', `${alias}.id`);
  const after = (alias: string) =>
    start === 'nothing' ? ' AND 1 = 0' : start.after === null ? '' : ` AND ${id(alias)} > ${d.keyParam('id', start.after, ctx)}`;
  const from = (alias: string) => `FROM ${d.table} AS ${alias} WHERE ${scopeWhere(ctx, alias)}${after(alias)}`;
  const order = (alias: string) => orderBy([{ ...ID, expression: `${alias}.id` }], ctx);
  if (!split) return `SELECT ${select} ${from('r')} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${params.add(limit + 1)}`;
  if (d.windowAsSubquery && ways.walk) return walkThenIndexRows(ctx, limit, select, filter, after('w'));
  const window = `SELECT w.id AS id ${from('w')} ORDER BY ${order('w')} LIMIT ${params.add(windowRows(limit))}`;
  const end = `(SELECT max(e.id) FROM (${window}) AS e)`;
  const page = params.add(limit + 1);
  const near = d.windowAsSubquery
    ? `SELECT ${select} FROM (SELECT * ${from('w')} ORDER BY ${order('w')} LIMIT ${params.add(windowRows(limit))}) AS r WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page}`
    : `SELECT ${select} ${from('r')} AND ${id('r')} <= ${end} AND ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page}`;
  const far = `SELECT ${select} ${from('r')} AND ${id('r')} > ${end} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page}`;
  return `SELECT * FROM (${near}) AS near UNION ALL SELECT * FROM (${far}) AS far`;
}

/**
 * idOrderedRows when bound index lists say every hit is among `candidates` (record seqs, SQLite:
 * bound-candidates.ts): the candidates in scope after the start are sorted by id (a rowid lookup
 * each, which reads the id and not the record's JSON), then looked up in that order and tested
 * whole, and the walk stops at a full page. At 100,000 records (scripts/bench-search.ts) the
 * window and the rest cost 2.5 to 4.7 ms for 505 to 1,103 candidates, this 0.35 to 0.55 ms: the
 * exact test runs on the page's candidates, not on every one, and no window is walked.
 */
function candidateRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  start: IdStart,
  candidates: readonly number[],
): string {
  const { d, params } = ctx;
  if (start === 'nothing' || candidates.length === 0) return `SELECT ${select} FROM ${d.table} AS r WHERE 1 = 0`;
  const after = start.after === null ? '' : ` AND ${d.keyColumn('id', 'c.id')} > ${d.keyParam('id', start.after, ctx)}`;
  const sorted = `SELECT c.seq AS seq, c.id AS id FROM ${d.table} AS c WHERE c.seq IN (SELECT value FROM json_each(${params.add(JSON.stringify(candidates))})) AND ${scopeWhere(ctx, 'c')}${after} ORDER BY ${orderBy([{ ...ID, expression: 'c.id' }], ctx)}${d.fence}`;
  // CROSS JOIN keeps the sorted candidates outer, so ORDER BY k.id needs no sorter and the walk stops at the page.
  return `SELECT ${select} FROM (${sorted}) AS k CROSS JOIN ${d.table} AS r ON r.seq = k.seq WHERE ${filter({ ...ctx, probe: true, amongCandidates: true })} ORDER BY ${orderBy([{ ...ID, expression: 'k.id' }], ctx)} LIMIT ${params.add(limit + 1)}`;
}
