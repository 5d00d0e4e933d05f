import { compileFilter } from './compile-filter.js';
import { afterCursor, joinPlanned, orderBy, scopeWhere, scoreFromCounts, type KeyColumn } from './plan-sql.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext } from './sql-dialect.js';
import { matchingCount, textPrefilter } from './text-sql.js';
import type { FilterNode, SearchRequest } from './types.js';

/**
 * The `ranked` plan: the candidates the indexes leave get each text node's count computed once
 * (an inner query the planner keeps as written); text nodes every hit must match are tested on
 * those counts, then rows are ordered by score and id and cut at limit + 1 before data is fetched.
 */
export function rankedSql(request: SearchRequest, scoring: readonly TextNode[], required: ReadonlySet<FilterNode>, ctx: CompileContext): string {
  const { d, params } = ctx;
  const replace = new Map<FilterNode, string>();
  for (const node of scoring) if (required.has(node)) replace.set(node, textPrefilter(node, ctx) ?? '1 = 1');
  const counts = scoring.map((node, j) => `${d.textCount(node, ctx)} AS c${j}`).join(', ');
  const filter = request.filter ? ` AND ${compileFilter(request.filter, ctx, replace)}` : '';
  const inner = `SELECT ${d.rowRef} AS ref, r.id AS id, ${counts} FROM ${d.table} AS r WHERE ${scopeWhere(ctx)}${filter}${d.fence}`;

  const score = scoreFromCounts(
    scoring,
    scoring.map((_, j) => `i.c${j}`),
    ctx,
  );
  const columns: KeyColumn[] = [
    { slot: 'score', expression: score, direction: 'desc' },
    { slot: 'id', expression: 'i.id', direction: 'asc' },
  ];
  const where = scoring.flatMap((node, j) => (required.has(node) ? [`i.c${j} >= ${matchingCount(node)}`] : []));
  if (request.cursor) where.push(afterCursor(columns, request.cursor, ctx));
  const ranked = `SELECT i.ref AS ref, ${score} AS k0, i.id AS k1 FROM (${inner}) AS i${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderBy(columns, ctx)} LIMIT ${params.add(request.limit + 1)}`;
  const order = orderBy(
    [
      { slot: 'score', expression: 'q.k0', direction: 'desc' },
      { slot: 'id', expression: 'q.k1', direction: 'asc' },
    ],
    ctx,
  );
  return joinPlanned(ranked, ['score', 'id'], order, ctx, 'q.k0');
}
