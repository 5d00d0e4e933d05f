import { anyOf, type IndexQuery } from './index-query.js';
import { INDEXED_IN_VALUES, type CompileContext } from './sql-dialect.js';
import { matchingCount, textIndexQuery } from './text-sql.js';
import { foldCase } from './text-match.js';
import type { FilterNode } from './types.js';

/** Record seqs (the SQLite row references the text index lists hold). */
type Seqs = readonly number[];

const intersect = (lists: readonly Seqs[]): Seqs => {
  const [smallest, ...others] = [...lists].sort((a, b) => a.length - b.length) as [Seqs, ...Seqs[]];
  const sets = others.map((list) => new Set(list));
  return smallest.filter((seq) => sets.every((set) => set.has(seq)));
};

const unite = (lists: readonly Seqs[]): Seqs => [...new Set(lists.flat())].sort((a, b) => a - b);

/**
 * The candidates the dialect's text index lists hold for one index query: `[]` for a query that
 * no row can pass, null when the index cannot narrow it down or its list is not bound (SQLite
 * binds lists of at most INDEX_LIST_MOST candidates, read ahead: sqlite-index-lists.ts).
 */
function listOf(node: Extract<FilterNode, { field: unknown }>, space: 'text' | 'words', query: IndexQuery, ctx: CompileContext): Seqs | null {
  if (query === false) return [];
  if (query === true) return null;
  return ctx.d.boundList?.(node.field, space, query, ctx) ?? null;
}

/**
 * The record seqs every row that passes `node` is among, when bound index lists say so, else
 * null. It asks exactly what compileFilter asks the index (a text node for its matching count, a
 * string equality or short string `in` where the dialect prefilters them), never under a `not`
 * (an index answers a superset, so its complement says nothing). An `and` holds its children's
 * common candidates (any child's list bounds it), an `or` the union when every child is bounded.
 */
export function boundCandidates(node: FilterNode | null, ctx: CompileContext): Seqs | null {
  if (!node) return null;
  const { d } = ctx;
  switch (node.op) {
    case 'and': {
      const lists = node.nodes.map((child) => boundCandidates(child, ctx)).filter((list): list is Seqs => list !== null);
      return lists.length === 0 ? null : intersect(lists);
    }
    case 'or': {
      const lists = node.nodes.map((child) => boundCandidates(child, ctx));
      return lists.every((list): list is Seqs => list !== null) ? unite(lists) : null;
    }
    case 'like':
    case 'fuzzy':
    case 'keyword': {
      const { space, query } = textIndexQuery(node, ctx, matchingCount(node));
      return listOf(node, space, query, ctx);
    }
    case 'eq':
      if (typeof node.value !== 'string' || !d.prefiltersEquality) return null;
      return listOf(node, 'text', d.indexText(node.field, foldCase(node.value), true, true), ctx);
    case 'in':
      if (!d.prefiltersEquality || node.values.length > INDEXED_IN_VALUES || !node.values.every((value) => typeof value === 'string')) return null;
      return listOf(node, 'text', anyOf(node.values.map((value) => d.indexText(node.field, foldCase(value as string), true, true))), ctx);
    default:
      return null;
  }
}
