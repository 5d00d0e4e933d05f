import type pg from 'pg';
import { indexPath } from './field-path.js';
import { anyOf, type IndexQuery } from './index-query.js';
import { postgresDialect } from './postgres-dialect.js';
import { compileRead, postgresRows, type ReadOptions, type SearchRow } from './search-rows.js';
import { scoringNodes } from './scoring-nodes.js';
import type { AbsentGrams, CompileContext } from './sql-dialect.js';
import { SqlParams } from './sql-params.js';
import type { SearchRequest, SearchScope } from './types.js';

/**
 * SQL true when the text index holds every row of the scope and no row holds any of `absent`'s
 * grams: the grams a read was shaped for are absent in the snapshot it runs in.
 */
function absenceGuard(request: SearchRequest, absent: AbsentGrams, ctx: CompileContext): string {
  const queries: IndexQuery[] = [];
  for (const node of scoringNodes(request.filter)) {
    if (node.op !== 'fuzzy') continue;
    for (const gram of absent.get(indexPath(node.field)) ?? []) queries.push(postgresDialect.indexGram(node.field, gram));
  }
  const holdsNone = postgresDialect.indexHoldsNone as NonNullable<typeof postgresDialect.indexHoldsNone>;
  return `(${postgresDialect.indexHoldsEveryRow(ctx)} AND ${holdsNone(anyOf(queries), ctx)})`;
}

/**
 * A levels read on PostgreSQL in one statement, shaped by the absent grams an earlier probe of the
 * same request found (known-absent.ts) instead of probing first: every level the page may need
 * (the rows stop at the page and one more), then, when the guard finds one of those grams in a row
 * or a row the index could not take, one row of NULLs. One statement is one snapshot, so with no
 * such row the levels were read where those grams are absent, exactly as after a probe
 * (gram-presence.ts); with it, undefined, and the caller probes. Why: the probe's way costs a
 * transaction, the probe and a statement per level (four round trips for a one-level page, five
 * for two, and a plan each), this the transaction and one statement (three round trips, one plan).
 */
export async function guardedLevelRows(
  pool: pg.Pool,
  scope: SearchScope,
  request: SearchRequest,
  read: ReadOptions,
  absent: AbsentGrams,
): Promise<SearchRow[] | undefined> {
  const levels = compileRead(pool, 'postgres', scope, request, { ...read, absent });
  const params = new SqlParams();
  // The levels statement's values keep their numbers ($1..$n); the guard's follow them.
  for (const value of levels.params) params.add(value);
  const guard = absenceGuard(request, absent, { d: postgresDialect, params, scope });
  const nulls = Array.from({ length: 3 + levels.slots.length }, () => 'NULL').join(', ');
  const { sql, params: values } = params.finish(`(${levels.sql}) UNION ALL SELECT ${nulls} WHERE NOT ${guard}`, 'postgres');
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // Scans off, as the probe's way reads levels (run-levels.ts): where a level's window in id order is most of a small
    // table, the planner would sort a parallel scan of all of it (90 ms at 10,000 records, against 15 for the index).
    await client.query('BEGIN READ ONLY; SET LOCAL enable_seqscan = off');
    const rows = await postgresRows(client, { sql, params: values, slots: levels.slots });
    await client.query('COMMIT');
    // A record always has an id: a row without one is the guard's.
    return rows.length > 0 && (rows[rows.length - 1] as SearchRow)[0] === null ? undefined : rows;
  } catch (error) {
    // A connection that cannot even roll back is not handed to the next caller.
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
    throw error;
  } finally {
    client.release(broken);
  }
}
