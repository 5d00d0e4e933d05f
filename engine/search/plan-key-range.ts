import { isBoundaryValue, keyRangeWhere, keysTable, rangeColumn } from './key-range-sql.js';
import type { KeyRange } from './key-range.js';
import { orderBy, scopeWhere } from './plan-sql.js';
import type { IdStart } from './plan-window.js';
import { RECORD_TABLE } from '../store/index.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * Keys a range read sorts by id first (keyRangeRows): 4 per row of the page. Why: a sort that
 * keeps only the first n keys costs less than one of every key, and the page usually ends among
 * them (a range's own filter passes every key; a `levels` plan's level most of them). Measured
 * over the 5,018 keys of `like 'launch%'` at 100,000 records (SQLite, the data of
 * scripts/bench-search.ts): the first 404 by id in 0.8 ms, all of them in 2.6 ms.
 */
const nearKeys = (limit: number) => 4 * (limit + 1);

/**
 * The first limit + 1 records in id order (from `start`) that pass `filter`, found through the
 * kept keys of a range every hit is in (range-keys.ts) instead of a scan of the records in id
 * order: the range's keys (fewer than rangeKeysLimit, as the probe found) are sorted by id, then
 * looked up one by one in that order and tested, and the walk stops at a full page. The sort is in
 * two parts joined by UNION ALL, which stops as soon as the page is full: the first nearKeys keys,
 * then, only when those leave the page short, the keys past the last of them. The filter is tested
 * whole (the range again too), so the rows are exactly the scan's. `select` reads the record row
 * `r`, as for idOrderedRows.
 */
export function keyRangeRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  start: IdStart,
  range: KeyRange,
): string {
  const { d, params } = ctx;
  if (start === 'nothing' || range.values?.length === 0) return `SELECT ${select} FROM ${d.table} AS r WHERE 1 = 0`;
  const id = d.keyColumn('id', 's.id');
  const after = start.after === null ? '' : ` AND ${id} > ${d.keyParam('id', start.after, ctx)}`;
  if (range.values) return valueByValueRows(ctx, limit, select, filter, after, range as ValueRange);
  const order = orderBy([{ slot: 'id', expression: 'k.id', direction: 'asc' }], ctx);
  const keys = (bound: string, most: string) =>
    `SELECT s.${d.name === 'sqlite' ? 'seq' : 'id'} AS ref, s.id AS id FROM ${keysTable(range)} AS s WHERE ${keyRangeWhere(range, ctx)}${after}${bound} ORDER BY ${id}${most}`;
  // Index filters test the looked-up rows rather than produce candidates of their own (see plan-window.ts), and the
  // keys narrow the rows already: no text index list is read ahead for them (CompileContext.amongCandidates).
  const test = filter({ ...ctx, probe: true, amongCandidates: true });
  const near = ` LIMIT ${params.add(nearKeys(limit))}`;
  const nearEnd = `(SELECT max(n.id) FROM (${keys('', near)}) AS n)`;
  const walk = (sorted: string) => {
    const page = params.add(limit + 1);
    // SQLite: CROSS JOIN keeps the sorted keys outer, one rowid lookup each, in id order, until the page is full.
    if (d.name === 'sqlite') return `SELECT ${select} FROM (${sorted}) AS k CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = k.ref WHERE ${test} LIMIT ${page}`;
    // A LATERAL lookup the planner may not flatten (OFFSET 0): the sorted keys stay outer, in order.
    const lookup = `SELECT * FROM ${RECORD_TABLE} AS r WHERE ${scopeWhere(ctx)} AND r.id = k.ref OFFSET 0`;
    return `SELECT ${select} FROM (${sorted}) AS k CROSS JOIN LATERAL (${lookup}) AS r WHERE ${test} ORDER BY ${order} LIMIT ${page}`;
  };
  return `SELECT * FROM (${walk(keys('', near))}) AS kn UNION ALL SELECT * FROM (${walk(keys(` AND ${id} > ${nearEnd}`, d.fence))}) AS kf`;
}

type ValueRange = KeyRange & { values: readonly (string | number)[] };

/**
 * keyRangeRows for a range of few distinct values: the keys of one value lie in id order in the
 * index (path, rank, num, str, id), so each value is one walk in id order that stops at a full
 * page of hits, and the page is the first limit + 1 of their union by id. Each walk tests the
 * whole filter, so the rows are exactly the scan's; the cost is values × a page of lookups, not
 * the range's size. A boundary value (isBoundaryValue: its records are mostly outside) is walked
 * only up to the id where the other values' walks already fill the page.
 */
function valueByValueRows(
  ctx: CompileContext,
  limit: number,
  select: string,
  filter: (ctx: CompileContext) => string,
  after: string,
  range: ValueRange,
): string {
  const { d, params } = ctx;
  const page = params.add(limit + 1);
  const walk = valueWalk(ctx, select, filter({ ...ctx, probe: true, amongCandidates: true }), after, range, page);
  const merge = (walks: string[]) => `SELECT * FROM (${walks.join(' UNION ALL ')}) AS m ORDER BY ${d.keyColumn('id', 'm.range_id')} LIMIT ${page}`;
  const firm = range.values.filter((value) => !isBoundaryValue(range, value, d.name));
  const boundary = range.values.filter((value) => isBoundaryValue(range, value, d.name));
  if (boundary.length === 0) return merge(firm.map((value) => walk(value, '')));
  // Only PostgreSQL keeps inexact keys: its planner runs the bounded or the unbounded walk, never both (one-time filters).
  const cut = `(SELECT CASE WHEN count(*) > ${params.add(limit)} THEN max(f.range_id) END FROM firm AS f)`;
  const firmPage =
    firm.length === 0 ? `SELECT ${select}, NULL::text AS range_id FROM ${d.table} AS r WHERE 1 = 0` : merge(firm.map((value) => walk(value, '')));
  const walks = boundary.flatMap((value) => [walk(value, ` AND ${d.keyColumn('id', 's.id')} <= ${cut}`), walk(value, ` AND ${cut} IS NULL`)]);
  return `WITH firm AS MATERIALIZED (${firmPage}) ${merge(['SELECT * FROM firm', ...walks])}`;
}

/** One value's walk: its keys in id order (after the cursor and `bound`), each record looked up and tested, cut at a page; sort keys or value keys (range.keys). */
function valueWalk(ctx: CompileContext, select: string, test: string, after: string, range: ValueRange, page: string) {
  const { d, params } = ctx;
  const path = params.add(range.pathId);
  const [slot, other] = range.rank === 0 ? (['number', "s.str = ''"] as const) : (['string', 's.num = 0'] as const);
  const column = rangeColumn(range);
  const record =
    d.name === 'sqlite'
      ? `CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = s.seq`
      : `CROSS JOIN LATERAL (SELECT * FROM ${RECORD_TABLE} AS r WHERE ${scopeWhere(ctx)} AND r.id = s.id OFFSET 0) AS r`;
  let n = 0;
  return (value: string | number, bound: string) => {
    const key = `s.path_id = ${path} AND s.rank = ${range.rank} AND ${other} AND ${d.keyColumn(slot, column)} = ${d.keyParam(slot, value, ctx)}`;
    const sql = `SELECT ${select}, s.id AS range_id FROM ${keysTable(range)} AS s ${record} WHERE ${key}${after}${bound} AND ${test} ORDER BY ${d.keyColumn('id', 's.id')} LIMIT ${page}`;
    return `SELECT * FROM (${sql}) AS v${n++}`;
  };
}
