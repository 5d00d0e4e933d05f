import type { KeySlot } from './cursor.js';
import { projectedData } from './projection-sql.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * Whether an id-ordered read carries its rows' `data` itself instead of looking each row up again
 * (joinPlanned). The join back exists so a sort never carries whole documents; these reads sort at
 * most a page (or a few text index candidates) and looking the page's rows up again costs 4 buffer
 * hits a row on PostgreSQL (1,001 rows: half the statement, 4.3 against 2.1 ms for the bench's
 * projection of 1,000 at 100k records):
 *
 * - a read of the records in id order with no text index asked and no kept keys read, when the
 *   request names fields (a small column, projection-sql.ts): it has no sort at all;
 * - a read that asks a text index through PostgreSQL's walks (plan-walk.ts: the walks have no sort,
 *   the index part sorts its page with a top-N heap) or SQLite's bound candidates (sorted by id
 *   before their rows are read), with the projected data, or the whole record when no fields are named.
 *
 * PostgreSQL's score levels carry theirs too (plan-levels.ts): each level's page is read in id
 * order, or its candidates sorted by id before their rows are read, and the final sort orders the
 * page and one more row (101 lookups fewer for the bench's keyword at 100k records: ~0.3 ms of
 * backend CPU).
 */
export function carriesData(split: boolean, candidates: boolean, ctx: CompileContext): boolean {
  if (ctx.keyRange !== undefined) return false;
  return split ? ctx.d.windowAsSubquery || candidates : ctx.fields !== undefined;
}

/** The planned rows' extra column when they carry their data (over the record row `r`). */
export function carriedColumn(ctx: CompileContext): string {
  return `, ${ctx.fields ? projectedData(ctx.fields, ctx) : 'r.data'} AS data`;
}

/** The statement's result from planned rows `q` that carry `data`: the same columns as joinPlanned's, the id taken from the keyset. */
export function carriedPage(planned: string, slots: readonly KeySlot[], order: string, score: string): string {
  const keys = slots.map((_, i) => `q.k${i} AS k${i}`).join(', ');
  return `SELECT q.k${slots.indexOf('id')} AS id, q.data AS data, ${score} AS score, ${keys} FROM (${planned}) AS q ORDER BY ${order}`;
}
