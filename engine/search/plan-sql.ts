import type { KeySlot } from './cursor.js';
import type { CompileContext } from './sql-dialect.js';
import { countOutOf } from './text-sql.js';
import type { TextNode } from './scoring-nodes.js';
import { projectedData } from './projection-sql.js';

/** One column of a keyset: its slot, the SQL it is ordered by, and its direction. */
export interface KeyColumn {
  slot: KeySlot;
  expression: string;
  direction: 'asc' | 'desc';
}

/** The request's scope, on the record row `r` (or another alias). */
export function scopeWhere({ params, scope }: CompileContext, alias = 'r'): string {
  return `${alias}.connector_id = ${params.add(scope.connectorId)} AND ${alias}.entity = ${params.add(scope.entity)}`;
}

/** `ORDER BY` items of a keyset. */
export function orderBy(columns: readonly KeyColumn[], ctx: CompileContext): string {
  return columns.map((column) => `${ctx.d.keyColumn(column.slot, column.expression)} ${column.direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
}

/**
 * "After the cursor" for a keyset: (c0 > v0) OR (c0 = v0 AND ((c1 > v1) OR (c1 = v1 AND ...))),
 * nested so its size stays linear; `<` for descending columns.
 */
export function afterCursor(columns: readonly KeyColumn[], values: readonly (string | number)[], ctx: CompileContext): string {
  const { d } = ctx;
  return columns.reduceRight((rest, column, i) => {
    const key = d.keyColumn(column.slot, column.expression);
    const value = d.keyParam(column.slot, values[i] as string | number, ctx);
    const after = `${key} ${column.direction === 'asc' ? '>' : '<'} ${value}`;
    return rest ? `(${after} OR (${key} = ${value} AND ${rest}))` : `(${after})`;
  }, '');
}

/** The score of a record from its text nodes' counts: the mean of their shares, in the dialect's float. */
export function scoreFromCounts(nodes: readonly TextNode[], counts: readonly string[], ctx: CompileContext): string {
  const shares = nodes.map((node, i) => ctx.d.share(counts[i] as string, countOutOf(node)));
  return shares.length === 1 ? (shares[0] as string) : `((${shares.join(' + ')}) / ${shares.length}.0)`;
}

/**
 * The statement's result: the planned rows `q` (at most limit + 1, carrying `ref`, their key
 * columns `k0..kN`) joined back to the record table for `data`, which the plan never had to
 * carry through a sort. `score` is a planned column or an expression over the joined row `r`.
 * When the request names fields, `data` is the JSON text of only the members they reach (projection-sql.ts).
 */
export function joinPlanned(planned: string, slots: readonly KeySlot[], order: string, ctx: CompileContext, score: string): string {
  const keys = slots.map((_, i) => `q.k${i} AS k${i}`).join(', ');
  return `SELECT r.id AS id, ${ctx.fields ? projectedData(ctx.fields, ctx) : 'r.data'} AS data, ${score} AS score, ${keys} FROM (${planned}) AS q ${ctx.d.lookupRow(ctx)} ORDER BY ${order}`;
}
