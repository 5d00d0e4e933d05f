import { asksTextIndex, compileFilter } from './compile-filter.js';
import { boundCandidates } from './bound-candidates.js';
import { foldFilter } from './fold-filter.js';
import { joinPlanned, orderBy } from './plan-sql.js';
import { idOrderedRows } from './plan-window.js';
import type { ScoreLevel } from './score-levels.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext } from './sql-dialect.js';
import { matchingCount, textPrefilter } from './text-sql.js';
import type { FilterNode, SearchRequest } from './types.js';

/** "This text node's count is exactly `count`": the index for at least that many, then the exact count. */
function countIs(node: TextNode, count: number, ctx: CompileContext): string {
  const exact = `(${ctx.d.textCount(node, ctx)}) = ${count}`;
  const prefilter = count > 0 ? textPrefilter(node, ctx, count) : null;
  return prefilter ? `(${prefilter} AND ${exact})` : exact;
}

/**
 * The filter of one level, per group of its combinations of counts: the filter folded with each
 * text node's match fixed by its count (a node matches when its count reaches matchingCount), so
 * the rows a level reads skip the branches that cannot matter there. Combinations whose folded
 * filters are the same share one; those that cannot match at all are left out (none left: the
 * level is empty).
 */
function levelGroups(filter: FilterNode, scoring: readonly TextNode[], counts: readonly number[][]): Array<{ rest: FilterNode | true; counts: number[][] }> {
  const groups = new Map<string, { rest: FilterNode | true; counts: number[][] }>();
  for (const combination of counts) {
    const known = new Map<FilterNode, boolean>(scoring.map((node, j) => [node, (combination[j] as number) >= matchingCount(node)]));
    const rest = foldFilter(filter, known);
    if (rest === false) continue;
    const key = JSON.stringify(rest);
    const group = groups.get(key);
    if (group) group.counts.push(combination);
    else groups.set(key, { rest, counts: [combination] });
  }
  return [...groups.values()];
}

/**
 * The `levels` plan: one branch per score a hit can have (score-levels.ts), best first, each the
 * level's rows in id order read through the id-ordered window (plan-window.ts): the level's
 * combinations of counts, then the filter as that level folds it (levelGroups). The counts come
 * first: a text count rules out most rows at the cost of one test. UNION ALL runs the branches in
 * order and stops once the page is full, so a page costs about what its rows cost, however deep
 * the cursor. The score is a literal per level, so a cursor's score names its level exactly.
 */
export function levelsSql(request: SearchRequest, scoring: readonly TextNode[], levels: readonly ScoreLevel[], ctx: CompileContext): string {
  const { d, params } = ctx;
  const [cursorScore, cursorId] = (request.cursor ?? []) as [number?, string?];
  // The scoring nodes are text operators, so the filter asks a text index.
  const split = asksTextIndex(request.filter, d);
  // Every level's hits pass the request's filter, so its bound candidates hold them all.
  const candidates = boundCandidates(request.filter, ctx);
  const branches: string[] = [];
  for (const { score, counts } of levels) {
    if (cursorScore !== undefined && score > cursorScore) continue;
    const groups = levelGroups(request.filter as FilterNode, scoring, counts);
    if (groups.length === 0) continue;
    const filter = (inner: CompileContext) => {
      const tests = groups.map(({ rest, counts: group }) => {
        const level = group.map((combination) => `(${combination.map((count, j) => countIs(scoring[j] as TextNode, count, inner)).join(' AND ')})`);
        return rest === true ? `(${level.join(' OR ')})` : `((${level.join(' OR ')}) AND ${compileFilter(rest, inner)})`;
      });
      return `(${tests.join(' OR ')})`;
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
