import type { KeySlot } from './cursor.js';
import { projectedData } from './projection-sql.js';
import type { CompileContext } from './sql-dialect.js';

/**
 * Whether an id-ordered read carries its rows' projected `data` itself instead of looking each row
 * up again (joinPlanned): when the request names fields (a small column, projection-sql.ts) and the
 * read walks the records in id order with no sort of its own (no text index asked, no kept keys
 * read). The join back exists so a sort never carries whole documents; this read has no sort, and
 * looking 1,001 rows up again was half of PostgreSQL's statement (4 buffer hits a row; 4.3 against
 * 2.1 ms for the bench's projection of 1,000 at 100k records); SQLite's ORDER BY then needs no sorter either.
 */
export function carriesData(split: boolean, ctx: CompileContext): boolean {
  return ctx.fields !== undefined && !split && ctx.keyRange === undefined;
}

/** The planned rows' extra column when they carry their data (over the record row `r`). */
export function carriedColumn(ctx: CompileContext): string {
  return ctx.fields ? `, ${projectedData(ctx.fields, ctx)} AS data` : '';
}

/** The statement's result from planned rows `q` that carry `data`: the same columns as joinPlanned's, the id taken from the keyset. */
export function carriedPage(planned: string, slots: readonly KeySlot[], order: string, score: string): string {
  const keys = slots.map((_, i) => `q.k${i} AS k${i}`).join(', ');
  return `SELECT q.k${slots.indexOf('id')} AS id, q.data AS data, ${score} AS score, ${keys} FROM (${planned}) AS q ORDER BY ${order}`;
}
