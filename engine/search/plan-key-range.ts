import type { KeyRange } from './key-range.js';
import { keyRangeWhere } from './range-keys.js';
import { orderBy, scopeWhere } from './plan-sql.js';
import type { IdStart } from './plan-window.js';
import { RECORD_TABLE } from '../store/index.js';
import { SORT_KEYS_TABLE } from './sort-key-target.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * The first limit + 1 records in id order (from `start`) that pass `filter`, found through the
 * kept keys of a range every hit is in (range-keys.ts) instead of a scan of the records in id
 * order: the range's keys (fewer than rangeKeysLimit, as the probe found) are sorted by id, then
 * looked up one by one in that order and tested, and the walk stops at a full page. The filter
 * is tested whole (the range again too), so the rows are exactly the scan's. `select` reads the
 * record row `r`, as for idOrderedRows.
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
  if (start === 'nothing') return `SELECT ${select} FROM ${d.table} AS r WHERE 1 = 0`;
  const id = d.keyColumn('id', 's.id');
  const after = start.after === null ? '' : ` AND ${id} > ${d.keyParam('id', start.after, ctx)}`;
  const order = orderBy([{ slot: 'id', expression: 'k.id', direction: 'asc' }], ctx);
  const keys = `SELECT s.${d.name === 'sqlite' ? 'seq' : 'id'} AS ref, s.id AS id FROM ${SORT_KEYS_TABLE} AS s WHERE ${keyRangeWhere(range, ctx)}${after} ORDER BY ${id}${d.fence}`;
  // Index filters test the looked-up rows rather than produce candidates of their own (see plan-window.ts).
  const test = filter({ ...ctx, probe: true });
  const page = params.add(limit + 1);
  if (d.name === 'sqlite') {
    // CROSS JOIN keeps the sorted keys outer: one rowid lookup each, in id order, until the page is full.
    return `SELECT ${select} FROM (${keys}) AS k CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = k.ref WHERE ${test} LIMIT ${page}`;
  }
  // A LATERAL lookup the planner may not flatten (OFFSET 0): the sorted keys stay outer, in order.
  const lookup = `SELECT * FROM ${RECORD_TABLE} AS r WHERE ${scopeWhere(ctx)} AND r.id = k.ref OFFSET 0`;
  return `SELECT ${select} FROM (${keys}) AS k CROSS JOIN LATERAL (${lookup}) AS r WHERE ${test} ORDER BY ${order} LIMIT ${page}`;
}
