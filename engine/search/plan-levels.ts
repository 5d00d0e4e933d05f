import { asksTextIndex, compileFilter } from './compile-filter.js';
import { boundCandidates } from './bound-candidates.js';
import { joinPlanned, orderBy } from './plan-sql.js';
import { idOrderedRows } from './plan-window.js';
import type { ScoreLevel } from './score-levels.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext } from './sql-dialect.js';
import { textPrefilter } from './text-sql.js';
import type { FilterNode, SearchRequest } from './types.js';

/** "This text node's count is exactly `count`": the index for at least that many, then the exact count. */
function countIs(node: TextNode, count: number, ctx: CompileContext): string {
  const exact = `(${ctx.d.textCount(node, ctx)}) = ${count}`;
  const prefilter = count > 0 ? textPrefilter(node, ctx, count) : null;
  return prefilter ? `(${prefilter} AND ${exact})` : exact;
}

/**
 * The `levels` plan: one branch per score a hit can have (score-levels.ts), best first, each the
 * level's rows in id order read through the id-ordered window (plan-window.ts): the filter, with
 * the text nodes every hit must match left to the level, and the level's combinations of counts.
 * UNION ALL runs the branches in order and stops once the page is full, so a page costs about
 * what its rows cost, however deep the cursor. The score is a literal per level, so a cursor's
 * score names its level exactly.
 */
export function levelsSql(
  request: SearchRequest,
  scoring: readonly TextNode[],
  required: ReadonlySet<FilterNode>,
  levels: readonly ScoreLevel[],
  ctx: CompileContext,
): string {
  const { d, params } = ctx;
  const [cursorScore, cursorId] = (request.cursor ?? []) as [number?, string?];
  const replace = new Map<FilterNode, string>(scoring.filter((node) => required.has(node)).map((node) => [node, '1 = 1']));
  // The scoring nodes are text operators, so the filter asks a text index.
  const split = asksTextIndex(request.filter, d);
  // Every level's hits pass the request's filter, so its bound candidates hold them all.
  const candidates = boundCandidates(request.filter, ctx);
  const branches: string[] = [];
  for (const { score, counts } of levels) {
    if (cursorScore !== undefined && score > cursorScore) continue;
    const filter = (inner: CompileContext) => {
      const level = counts.map((combination) => `(${combination.map((count, j) => countIs(scoring[j] as TextNode, count, inner)).join(' AND ')})`);
      return `(${compileFilter(request.filter as FilterNode, inner, replace)} AND (${level.join(' OR ')}))`;
    };
    const start = { after: cursorScore === score ? (cursorId as string) : null };
    const select = `${d.rowRef} AS ref, ${d.keyParam('score', score, ctx)} AS k0, r.id AS k1`;
    branches.push(`SELECT * FROM (${idOrderedRows(ctx, request.limit, select, filter, start, split, { candidates, walk: false })}) AS l${branches.length}`);
  }
  const planned =
    branches.length === 0
      ? `SELECT ${d.rowRef} AS ref, ${d.keyParam('score', 0, ctx)} AS k0, r.id AS k1 FROM ${d.table} AS r WHERE 1 = 0`
      : `SELECT * FROM (${branches.join(' UNION ALL ')}) AS u LIMIT ${params.add(request.limit + 1)}`;
  const order = orderBy(
    [
      { slot: 'score', expression: 'q.k0', direction: 'desc' },
      { slot: 'id', expression: 'q.k1', direction: 'asc' },
    ],
    ctx,
  );
  return joinPlanned(planned, ['score', 'id'], order, ctx, 'q.k0');
}
