import { fewerTerms } from './fewer-terms.js';
import { allOf, atLeast, type IndexQuery } from './index-query.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext, IndexSpace } from './sql-dialect.js';
import { FUZZY_MIN_SIMILARITY, fuzzyGrams, keywordWords, likePieces } from './text-match.js';

/** What a text node's count is out of: 1 for like, the query's trigrams for fuzzy, its words for keyword. */
export function countOutOf(node: TextNode): number {
  if (node.op === 'like') return 1;
  return node.op === 'fuzzy' ? fuzzyGrams(node.text).length : keywordWords(node.text).length;
}

/**
 * The least count that matches: like 1, keyword 1 (any word), fuzzy the first count whose share
 * reaches FUZZY_MIN_SIMILARITY, found with the very division the evaluator does.
 */
export function matchingCount(node: TextNode): number {
  if (node.op !== 'fuzzy') return 1;
  const of = countOutOf(node);
  let count = 0;
  while (count / of < FUZZY_MIN_SIMILARITY) count++;
  return count;
}

/**
 * The index query for "the node's count is at least `need`" and which index it is for: keyword
 * words or fuzzy trigrams, k of n; like needs every literal piece (a few of its terms: fewer-terms.ts).
 */
export function textIndexQuery(node: TextNode, ctx: CompileContext, need: number): { space: IndexSpace; query: IndexQuery } {
  const { d } = ctx;
  if (node.op === 'keyword')
    return {
      space: 'words',
      query: atLeast(
        keywordWords(node.text).map((word) => d.indexWord(node.field, word)),
        need,
      ),
    };
  if (node.op === 'fuzzy')
    return {
      space: 'text',
      query: atLeast(
        fuzzyGrams(node.text).map((gram) => d.indexGram(node.field, gram)),
        need,
      ),
    };
  return { space: 'text', query: fewerTerms(allOf(likePieces(node.text).map((piece) => d.indexText(node.field, piece.text, piece.start, piece.end)))) };
}

/** The index test that narrows a text node down to rows whose count may reach `need`; null when the index cannot help. */
export function textPrefilter(node: TextNode, ctx: CompileContext, need = matchingCount(node)): string | null {
  const { space, query } = textIndexQuery(node, ctx, need);
  return query === true ? null : ctx.d.indexFilter(node.field, space, query, ctx);
}

/** The exact test of a text node (a `like` through the dialect's own test when it has one). */
export function textMatch(node: TextNode, ctx: CompileContext): string {
  if (node.op === 'like' && ctx.d.likeMatch) return ctx.d.likeMatch(node, ctx);
  return `(${ctx.d.textCount(node, ctx)}) >= ${matchingCount(node)}`;
}
