import { orderBy, scopeWhere, type KeyColumn } from './plan-sql.js';
import type { CompileContext } from './sql-dialect.js';
import { COST_RATIO, walkThenIndexRows } from './plan-walk.js';

/**
 * Rows read in id order before the rest is left to the planner: enough for a page when a few
 * percent of rows pass (20 per hit asked for, at least 5,000), few enough to stay cheap when none do.
 */
const windowRows = (limit: number) => Math.max(5_000, 20 * (limit + 1));

/**
 * The LIMIT of a window of `windowSize` rows, as SQL. Scaled (PostgreSQL, WindowOptions.scaled):
 * at most sqrt(COST_RATIO x table rows x page) rows, the table's rows as the planner counts them
 * (pg_class.reltuples; 0 or less before the table's first ANALYZE: then windowSize), and at least
 * a page. That is plan-walk.ts's balance of a row walked in id order against a candidate of the
 * index: a filter that does not fill the page within the window has so few hits that the index
 * costs about what the window did. From about 100,000 rows on, it is windowSize (5,000 for a page
 * of 100) as before; below, the window shrinks: on 10,000 records a level of about 150 hits
 * walked 5,000 rows (22 ms at the bench's deep page by score) where 1,589 and its index do.
 */
function windowLimit(ctx: CompileContext, limit: number, windowSize: number, scaled: boolean): string {
  const { d, params } = ctx;
  const rows = params.add(windowSize);
  if (!scaled || !d.windowAsSubquery) return rows;
  const page = params.add(limit + 1);
  const balanced = `least(${rows}::bigint, greatest(${page}::bigint, floor(sqrt(${COST_RATIO} * c.reltuples * ${page}::float8))::bigint))`;
  return `(SELECT CASE WHEN c.reltuples <= 0 THEN ${rows}::bigint ELSE ${balanced} END FROM pg_class AS c WHERE c.oid = ${params.add(d.table)}::regclass)`;
}

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
  /** Every hit is among these record seqs (SQLite's bound index lists: bound-candidates.ts), or null. */
  candidates?: readonly number[] | null;
  /** Every hit after the start is among these record seqs, in id order, all after the start (SQLite's level lists: sqlite-level-lists.ts). */
  idOrdered?: readonly number[];
  /** Whether PostgreSQL may walk first and let the density it finds decide (plan-walk.ts), instead of a fixed window. */
  walk?: boolean;
  /** Whether PostgreSQL's window shrinks on a small table (windowLimit); the window is windowSize rows otherwise. */
  scaled?: boolean;
}

/** Where an id-ordered read starts: at the scope's first id, after a cursor's id, or nowhere. */
export type IdStart = { after: string | null } | 'nothing';

/**
 * The first limit + 1 records in id order (from `start`) that pass `filter`, with the columns
 * `select` (over the record row `r`). When `split` (the filter asks a text index):
 *
 * - with `candidates` (SQLite, when its bound index lists hold every hit: bound-candidates.ts),
 *   those candidates sorted by id, each tested in turn until the page is full;
 * - on PostgreSQL with `walk`, a walk in id order whose length follows the filter's density, then
 *   the text index for the rest (plan-walk.ts: the keyed plan's, and a score level's with no window
 *   of its own, plan-levels.ts), the narrowed candidates with `narrow`;
 * - otherwise in two parts joined by UNION ALL, which stops as soon as the page is full: the next
 *   few thousand rows in id order (up to the id that ends that window), each tested in turn, so a
 *   common filter fills the page at a bounded cost; then the rows past the window, found however
 *   the planner likes (an index, for a rare filter). The window is `windowSize` rows
 *   (windowRows unless a plan knows better); with `narrow`, the rows past it are the narrowed
 *   candidates (see WindowOptions), and with `nearless` there is no window.
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
  options: WindowOptions = {},
): string {
  const { d, params } = ctx;
  if (split && options.candidates) return candidateRows(ctx, limit, select, filter, start, options.candidates);
  if (split && options.idOrdered) return idOrderedCandidateRows(ctx, limit, select, filter, start, options.idOrdered);
  const id = (alias: string) => d.keyColumn('id', `${alias}.id`);
  const after = (alias: string) =>
    start === 'nothing' ? ' AND 1 = 0' : start.after === null ? '' : ` AND ${id(alias)} > ${d.keyParam('id', start.after, ctx)}`;
  const from = (alias: string) => `FROM ${d.table} AS ${alias} WHERE ${scopeWhere(ctx, alias)}${after(alias)}`;
  const order = (alias: string) => orderBy([{ ...ID, expression: `${alias}.id` }], ctx);
  const page = () => params.add(limit + 1);
  const { narrow, windowSize = windowRows(limit), scaled = false } = options;
  // Candidates named by the index, in id order, each tested when it is reached: the page's rows are tested, not every candidate's.
  const narrowed = (bound: string) =>
    `SELECT ${select} FROM (SELECT ${d.tupleId} AS tid, r.id AS id ${from('r')}${bound} AND ${narrow?.(ctx)} ORDER BY ${order('r')}${d.fence}) AS n ${d.candidateRow(ctx)} WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('n')} LIMIT ${page()}`;
  if (narrow && options.nearless) return narrowed('');
  if (!split) return `SELECT ${select} ${from('r')} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page()}`;
  if (d.windowAsSubquery && options.walk)
    return walkThenIndexRows(ctx, limit, select, filter, after('w'), narrow && ((farStart) => narrowed(` AND ${id('r')} > ${farStart}`)));
  const window = `SELECT w.id AS id ${from('w')} ORDER BY ${order('w')} LIMIT ${windowLimit(ctx, limit, windowSize, scaled)}`;
  const end = `(SELECT max(e.id) FROM (${window}) AS e)`;
  const near = d.windowAsSubquery
    ? `SELECT ${select} FROM (SELECT * ${from('w')} ORDER BY ${order('w')} LIMIT ${windowLimit(ctx, limit, windowSize, scaled)}) AS r WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page()}`
    : `SELECT ${select} ${from('r')} AND ${id('r')} <= ${end} AND ${filter({ ...ctx, probe: true })} ORDER BY ${order('r')} LIMIT ${page()}`;
  const far = narrow
    ? narrowed(` AND ${id('r')} > ${end}`)
    : `SELECT ${select} ${from('r')} AND ${id('r')} > ${end} AND ${filter(ctx)} ORDER BY ${order('r')} LIMIT ${page()}`;
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

/**
 * idOrderedRows when a level list names every hit's record seq in id order (SQLite:
 * sqlite-level-lists.ts): the seqs are walked in their order (json_each's rowid is the array
 * order, and SQLite walks it without a sorter), each record looked up and tested whole as it is
 * reached, until the page is full. The id test after the start only restates what the list holds.
 */
function idOrderedCandidateRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  start: IdStart,
  seqs: readonly number[],
): string {
  const { d, params } = ctx;
  if (start === 'nothing' || seqs.length === 0) return `SELECT ${select} FROM ${d.table} AS r WHERE 1 = 0`;
  const after = start.after === null ? '' : ` AND ${d.keyColumn('id', 'r.id')} > ${d.keyParam('id', start.after, ctx)}`;
  // CROSS JOIN keeps the list outer, in its order: one rowid lookup per seq reached.
  return `SELECT ${select} FROM json_each(${params.add(JSON.stringify(seqs))}) AS k CROSS JOIN ${d.table} AS r ON r.seq = k.value WHERE ${scopeWhere(ctx, 'r')}${after} AND ${filter({ ...ctx, probe: true, amongCandidates: true })} ORDER BY k.rowid LIMIT ${params.add(limit + 1)}`;
}
