import { compileFilter } from './compile-filter.js';
import { afterCursor, orderBy, type KeyColumn } from './plan-sql.js';
import { SORT_KEYS_TABLE } from './sort-key-target.js';
import type { CompileContext } from './sql-dialect.js';
import type { SearchRequest } from './types.js';

/**
 * The rows of a sorted request in key order, read from the kept sort keys of its first sort key
 * (registered as `pathId`, see sort-keys-*.ts) instead of computing and sorting every record's key:
 * the index walk stops at limit + 1 rows. `columns` are columnsSql's keyset columns: the first
 * three (type rank, number, string of the first sort key) and the id read the keys row `s`,
 * later sort keys the record row `r`, whose ties the planner sorts group by group.
 *
 * A cursor is a seek, not an offset: "after (rank, num, str, rest)" is split into four ranges of
 * the index (same key and after the rest; same rank and number, later string; same rank, later
 * number; later rank), each read in order and cut at limit + 1, then concatenated in that order
 * (they are disjoint and consecutive), as plan-window.ts does. One nested OR over the whole key
 * would leave both planners scanning from the start or sorting every remaining row.
 */
export function sortedKeyRows(request: SearchRequest, columns: readonly KeyColumn[], pathId: number, page: string, ctx: CompileContext): string {
  const { d, params } = ctx;
  const needsRecord = request.filter !== null || columns.length > 4;
  const from = `FROM ${SORT_KEYS_TABLE} AS s${needsRecord ? ` ${d.sortKeysRecord(ctx)}` : ''}`;
  const select = `SELECT ${d.sortKeysRef} AS ref, ${columns.map((column, i) => `${column.expression} AS k${i}`).join(', ')} ${from}`;
  const order = orderBy(columns, ctx);
  const base = [`s.path_id = ${params.add(pathId)}`];
  if (request.filter) base.push(compileFilter(request.filter, ctx));
  const branch = (bounds: string[]) => `${select} WHERE ${[...base, ...bounds].join(' AND ')} ORDER BY ${order} LIMIT ${page}`;
  if (!request.cursor) return branch([]);

  const value = (i: number) => d.keyParam(columns[i]?.slot ?? 'id', request.cursor?.[i] as string | number, ctx);
  const column = (i: number) => d.keyColumn(columns[i]?.slot ?? 'id', columns[i]?.expression ?? '');
  const later = (columns[1]?.direction ?? 'asc') === 'asc' ? '>' : '<';
  const same = (n: number) => Array.from({ length: n }, (_, i) => `${column(i)} = ${value(i)}`);
  const branches = [
    branch([...same(3), afterCursor(columns.slice(3), request.cursor.slice(3), ctx)]),
    branch([...same(2), `${column(2)} ${later} ${value(2)}`]),
    branch([...same(1), `${column(1)} ${later} ${value(1)}`]),
    branch([`${column(0)} > ${value(0)}`]),
  ];
  return `SELECT * FROM (${branches.map((sql, i) => `SELECT * FROM (${sql}) AS b${i}`).join(' UNION ALL ')}) AS u LIMIT ${page}`;
}
