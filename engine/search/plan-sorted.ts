import { compileFilter } from './compile-filter.js';
import { carriedColumn } from './plan-carried.js';
import { afterCursor, orderBy, type KeyColumn } from './plan-sql.js';
import { SORT_KEYS_TABLE, SORT_PAIRS_TABLE, type KeptSort } from './sort-key-target.js';
import type { CompileContext } from './sql-dialect.js';
import type { SearchRequest } from './types.js';

/**
 * The rows of a sorted request in key order, read from the kept keys of its first sort key, or of
 * its first two (`kept`, see sort-keys.ts), instead of computing and sorting every record's key:
 * the index walk stops at limit + 1 rows. `columns` are keyedSql's keyset columns: three per sort
 * key (type rank, number, string) and the id; those of the kept keys read the keys row `s`, later
 * sort keys the record row `r`, whose ties the planner sorts group by group.
 *
 * A cursor is a seek, not an offset: "after (c0, c1, ..., rest)" over the n kept columns is split
 * into n + 1 ranges of the index (same kept columns and after the rest; then for each column from
 * the last, the same columns before it and a later value of it), each read in order and cut at
 * limit + 1, then concatenated in that order (they are disjoint and consecutive), as
 * plan-window.ts does. One nested OR over the whole key would leave both planners scanning from
 * the start or sorting every remaining row.
 *
 * With `carry` the rows also carry their (projected) `data` from the record row the filter read
 * (see sortedCarries), so the page's records are not looked up a second time.
 */
export function sortedKeyRows(request: SearchRequest, columns: readonly KeyColumn[], kept: KeptSort, page: string, ctx: CompileContext, carry = false): string {
  const { d, params } = ctx;
  const width = 3 * kept.keys;
  const needsRecord = request.filter !== null || columns.length > width + 1;
  const table = kept.keys === 2 ? SORT_PAIRS_TABLE : SORT_KEYS_TABLE;
  const from = `FROM ${table} AS s${needsRecord ? ` ${d.sortKeysRecord(ctx)}` : ''}`;
  const select = `SELECT ${d.sortKeysRef} AS ref, ${columns.map((column, i) => `${column.expression} AS k${i}`).join(', ')}${carry ? carriedColumn(ctx) : ''} ${from}`;
  const order = orderBy(columns, ctx);
  // A pair's index is partial (WHERE pair_id = its id): the planners match it on a literal only. The id is ours, an integer.
  const base = [kept.keys === 2 ? `s.pair_id = ${Number(kept.id)}` : `s.path_id = ${params.add(kept.id)}`];
  if (request.filter) base.push(compileFilter(request.filter, ctx));
  const branch = (bounds: string[]) => `${select} WHERE ${[...base, ...bounds].join(' AND ')} ORDER BY ${order} LIMIT ${page}`;
  if (!request.cursor) return branch([]);

  const value = (i: number) => d.keyParam(columns[i]?.slot ?? 'id', request.cursor?.[i] as string | number, ctx);
  const column = (i: number) => d.keyColumn(columns[i]?.slot ?? 'id', columns[i]?.expression ?? '');
  const later = (i: number) => ((columns[i]?.direction ?? 'asc') === 'asc' ? '>' : '<');
  const same = (n: number) => Array.from({ length: n }, (_, i) => `${column(i)} = ${value(i)}`);
  const branches = [branch([...same(width), afterCursor(columns.slice(width), request.cursor.slice(width), ctx)])];
  for (let i = width - 1; i >= 0; i--) branches.push(branch([...same(i), `${column(i)} ${later(i)} ${value(i)}`]));
  return `SELECT * FROM (${branches.map((sql, i) => `SELECT * FROM (${sql}) AS b${i}`).join(' UNION ALL ')}) AS u LIMIT ${page}`;
}

/**
 * Whether a read of kept keys (sortedKeyRows) carries its rows' data instead of looking the page's
 * records up again (joinPlanned): on PostgreSQL, when a filter already joins each walked key to
 * its record, the kept keys hold every sort key (nothing is sorted past the index walk, so no sort
 * carries documents) and the score is constant (a scored one is computed over the looked-up row).
 * The record the filter tested is the row the lookup would find, in the same snapshot: looking it
 * up again was 101 primary-key lookups for the bench's "sort 2 keys" at 100k records (404 buffer
 * hits of 1,623, ~0.3 ms of its 2 ms).
 */
export function sortedCarries(request: SearchRequest, columns: readonly KeyColumn[], kept: KeptSort, constantScore: boolean, ctx: CompileContext): boolean {
  return ctx.d.name === 'postgres' && constantScore && request.filter !== null && columns.length === 3 * kept.keys + 1;
}
