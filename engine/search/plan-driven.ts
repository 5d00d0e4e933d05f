import { andNodes } from './and-nodes.js';
import { compileFilter } from './compile-filter.js';
import { orderBy, scopeWhere } from './plan-sql.js';
import { INDEXED_IN_VALUES, type CompileContext } from './sql-dialect.js';
import type { FilterNode } from './types.js';
import type { IdStart } from './plan-window.js';

/**
 * The most records a driving equality may match for a score level to read them instead of its
 * text index candidates (PostgreSQL). Each is fetched and tested whole per level, about as much as
 * a text index candidate costs (at 100,000 records, scripts/bench-search.ts, 68,004 candidates of
 * "invoice hiring" cost 690 ms: ~10 µs each), so 2,000 of them cost about what a level's window of
 * 5,000 rows in id order does. The same bound as SQLite's read-ahead lists (INDEX_LIST_MOST).
 */
export const DRIVEN_MOST = 2_000;

/** The name of the statement's common table of driving candidates (drivenTable). */
const DRIVE = 'drive';

/**
 * The string equalities (an `eq` of a string, an `in` of a few strings) every hit must pass: those
 * joined to the root by `and` alone. Why strings: an id, a user id or a date names few records and
 * PostgreSQL's containment index finds them at once, at any path; a boolean or a common number
 * rarely narrows anything. Not on a path the manifest types (FieldRef.valueType): its values
 * compare as numbers or dates, which no index serves, so reading its records would walk the table.
 */
export function drivingNodes(filter: FilterNode | null): FilterNode[] {
  return andNodes(filter).filter(
    (node) =>
      (node.op === 'eq' && typeof node.value === 'string' && !node.field.valueType) ||
      (node.op === 'in' && !node.field.valueType && node.values.length <= INDEXED_IN_VALUES && node.values.every((value) => typeof value === 'string')),
  );
}

/**
 * The statement's common table of driving candidates (PostgreSQL): the records in scope that pass
 * every driving equality (drivingNodes), found by their index, at most DRIVEN_MOST + 1 of them
 * (so a common value costs a bounded read), each with its tuple id and record id. MATERIALIZED:
 * read once for the statement, however many levels read it. `WITH ...` prefixes the statement.
 */
export function drivenTable(nodes: readonly FilterNode[], ctx: CompileContext): string {
  const tests = nodes.map((node) => compileFilter(indexedEquality(node), ctx)).join(' AND ');
  return `WITH ${DRIVE} AS MATERIALIZED (SELECT ${ctx.d.tupleId} AS tid, r.id AS id FROM ${ctx.d.table} AS r WHERE ${scopeWhere(ctx)} AND ${tests} LIMIT ${ctx.params.add(DRIVEN_MOST + 1)}) `;
}

/**
 * A driving node as its index reads it: an `in` as an `or` of its equalities (the same records:
 * SPEC.md's `in` is any of its `eq`s), one containment test each, which a plan kept for every value
 * (postgres-statements.ts) still reads as a bitmap OR of index lookups; `= ANY` of a bound array,
 * whose length a generic plan does not know, may be read as a walk of the table.
 */
function indexedEquality(node: FilterNode): FilterNode {
  if (node.op !== 'in') return node;
  return { op: 'or', nodes: node.values.map((value) => ({ op: 'eq', field: node.field, value })) };
}

/** "The driving candidates are few" (at most DRIVEN_MOST), a test the planner runs once per statement (an initplan), before the rows it gates. */
export function drivenFew(ctx: CompileContext): string {
  return `(SELECT count(*) FROM ${DRIVE}) <= ${ctx.params.add(DRIVEN_MOST)}`;
}

/**
 * The first limit + 1 rows after `start` in id order that pass `filter`, read from the driving
 * candidates (drivenTable) when they are few: sorted by id (at most DRIVEN_MOST), then each looked
 * up by its tuple id and tested whole as it is reached, until the page is full. Every hit passes
 * the driving equalities, so it is among them. When they are many this reads nothing (the gate is
 * a one-time filter: its rows are not even sorted), and `rest` (the level's usual read) is gated
 * the other way, so exactly one of the two reads rows.
 */
export function drivenRows(ctx: CompileContext, limit: number, select: string, filter: (ctx: CompileContext) => string, start: IdStart, rest: string): string {
  const { d, params } = ctx;
  const id = d.keyColumn('id', 'c.id');
  const after = start === 'nothing' ? ' AND 1 = 0' : start.after === null ? '' : ` AND ${id} > ${d.keyParam('id', start.after, ctx)}`;
  const few = drivenFew(ctx);
  const sorted = `SELECT c.tid AS tid, c.id AS id FROM ${DRIVE} AS c WHERE ${few}${after} ORDER BY ${id} ASC${d.fence}`;
  const order = orderBy([{ slot: 'id', expression: 'n.id', direction: 'asc' }], ctx);
  const driven = `SELECT ${select} FROM (${sorted}) AS n ${d.candidateRow(ctx)} WHERE ${filter({ ...ctx, probe: true })} ORDER BY ${order} LIMIT ${params.add(limit + 1)}`;
  return `SELECT * FROM (${driven}) AS driven UNION ALL SELECT * FROM (${rest}) AS rest WHERE NOT ${drivenFew(ctx)}`;
}
