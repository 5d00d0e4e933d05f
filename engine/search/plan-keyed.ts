import { asksTextIndex, compileFilter } from './compile-filter.js';
import { boundCandidates } from './bound-candidates.js';
import { carriedColumn, carriedPage, carriesData } from './plan-carried.js';
import { afterCursor, joinPlanned, orderBy, scopeWhere, scoreFromCounts, type KeyColumn } from './plan-sql.js';
import { idOrderedRows, type IdStart } from './plan-window.js';
import { keyRangeRows } from './plan-key-range.js';
import { sortedCarries, sortedKeyRows } from './plan-sorted.js';
import { scoringNodes } from './scoring-nodes.js';
import type { CompileContext } from './sql-dialect.js';
import type { KeySlot } from './cursor.js';
import type { SearchRequest } from './types.js';

/** The columns of the kept keys row `s` for its first and second sort key (sort-keys-*.ts, sort-pairs-*.ts). */
const KEPT_COLUMNS = [
  ['s.rank', 's.num', 's.str'],
  ['s.then_rank', 's.then_num', 's.then_str'],
];

/**
 * The `keyed` plan: rows in key order (sort keys, then id), filtered, cut at limit + 1 before their
 * data is fetched. With no explicit sort the order is the score (the same for every hit here)
 * then id, so the cursor's score is settled in TypeScript, only the id bounds the scan, and rows
 * come through the id-ordered window. The score of a sorted, scored query is computed for the
 * page rows only.
 */
export function keyedSql(request: SearchRequest, constantScore: boolean, slots: readonly KeySlot[], ctx: CompileContext): string {
  const { d, params } = ctx;
  const columns: KeyColumn[] = [];
  const indexed = ctx.sortKeys !== undefined;
  const kept = ctx.sortKeys?.keys ?? 0;
  request.sort.forEach((sort, i) => {
    // The kept keys' columns of `s` (plan-sorted.ts) for the sort keys they hold.
    const [rank, number, string] = i < kept ? (KEPT_COLUMNS[i] as [string, string, string]) : d.sortKey(sort.field, ctx);
    columns.push(
      // Type rank always ascending: numbers and booleans, then strings, then missing, in both directions.
      { slot: 'rank', expression: rank, direction: 'asc' },
      { slot: 'number', expression: number, direction: sort.direction },
      { slot: 'string', expression: string, direction: sort.direction },
    );
  });
  const idColumn: KeyColumn = { slot: 'id', expression: indexed && request.sort.length > 0 ? 's.id' : 'r.id', direction: 'asc' };
  columns.push(idColumn);
  const byScore = slots[0] === 'score';

  const one = d.keyParam('score', 1, ctx);
  const page = params.add(request.limit + 1);
  let planned: string;
  let carried = false;
  if (request.sort.length === 0) {
    // Id order: read through the id-ordered window (plan-window.ts).
    let start: IdStart = { after: null };
    if (request.cursor && byScore) {
      const [score, id] = request.cursor as [number, string];
      // Every hit scores 1: after (score, id) means every row when 1 < score, rows after id when equal, none when 1 > score.
      start = score < 1 ? 'nothing' : score === 1 ? { after: id } : { after: null };
    } else if (request.cursor) {
      start = { after: request.cursor[0] as string };
    }
    const filter = (inner: CompileContext) => (request.filter ? compileFilter(request.filter, inner) : '1 = 1');
    const split = asksTextIndex(request.filter, d);
    const candidates = boundCandidates(request.filter, ctx);
    carried = carriesData(split, candidates !== null, ctx);
    const select = `${d.rowRef} AS ref, ${byScore ? `${one} AS k0, r.id AS k1` : 'r.id AS k0'}${carried ? carriedColumn(ctx) : ''}`;
    // A range with a `like` holds only that like's rows (a levels plan's: KeyRange.like), never every hit.
    const rows =
      ctx.keyRange && !ctx.keyRange.like
        ? keyRangeRows(ctx, request.limit, select, filter, start, ctx.keyRange)
        : idOrderedRows(ctx, request.limit, select, filter, start, split, { candidates, walk: true });
    planned = `SELECT * FROM (${rows}) AS u LIMIT ${page}`;
  } else if (ctx.sortKeys !== undefined) {
    carried = sortedCarries(request, columns, ctx.sortKeys, constantScore, ctx);
    planned = sortedKeyRows(request, columns, ctx.sortKeys, page, ctx, carried);
  } else {
    const where = [scopeWhere(ctx)];
    if (request.filter) where.push(compileFilter(request.filter, ctx));
    if (request.cursor) where.push(afterCursor(columns, request.cursor, ctx));
    const keys = columns.map((column, i) => `${column.expression} AS k${i}`);
    planned = `SELECT ${d.rowRef} AS ref, ${keys.join(', ')} FROM ${d.table} AS r WHERE ${where.join(' AND ')} ORDER BY ${orderBy(columns, ctx)} LIMIT ${page}`;
  }

  const outer = columns.map((column, i) => ({ ...column, expression: `q.k${byScore ? i + 1 : i}` }));
  if (carried) return carriedPage(planned, slots, orderBy(outer, ctx), one);
  const nodes = scoringNodes(request.filter);
  const score = constantScore
    ? one
    : scoreFromCounts(
        nodes,
        nodes.map((node) => d.textCount(node, ctx)),
        ctx,
      );
  return joinPlanned(planned, slots, orderBy(outer, ctx), ctx, score);
}
