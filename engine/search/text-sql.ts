import { KeptPerOwner } from './kept-per-owner.js';
import { fewerTerms } from './fewer-terms.js';
import { indexPath } from './field-path.js';
import type { AbsentGrams } from './sql-dialect.js';
import { allOf, anyOf, atLeast, type IndexQuery } from './index-query.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext, IndexSpace } from './sql-dialect.js';
import { FUZZY_MIN_SIMILARITY, fuzzyGrams, keywordWords, likePieces } from './text-match.js';

/**
 * Most trigrams a fuzzy index query names in all (atLeast's unit budget), before each of its
 * "all of these" parts is cut to a few terms (fewerTerms). A fuzzy query's trigrams are those of
 * common words more often than not, and each one named costs a read of its posting list: at
 * 100,000 records (scripts/bench-search.ts) SQLite's FTS5 answers "8 of these 9" spelled out (9
 * parts of 8) in 30 to 40 ms, as two parts of 5 and 4 in 4 ms, and all 9 in 2 ms, 3 of them in 0.7 ms.
 */
const FUZZY_INDEX_UNITS = 9;

/** What a text node's count is out of: 1 for like, the query's trigrams for fuzzy, its words for keyword. */
export function countOutOf(node: TextNode): number {
  if (node.op === 'like') return 1;
  return node.op === 'fuzzy' ? fuzzyGrams(node.text).length : keywordWords(node.text).length;
}

/**
 * The highest count a record can have: a fuzzy node's trigrams less those no record holds
 * (gram-presence.ts); countOutOf otherwise.
 */
export function countAtMost(node: TextNode, absent: AbsentGrams | undefined): number {
  return node.op === 'fuzzy' ? heldGrams(node, absent).length : countOutOf(node);
}

/**
 * A fuzzy node's trigrams less those no record holds (gram-presence.ts): what its count adds up
 * in a read that sees `absent`'s grams absent (run-levels.ts), where the others add 0 to every
 * row, so testing them would only cost (6 of 15 tests a row for the bench's misspelt query).
 */
export function heldGrams(node: TextNode, absent: AbsentGrams | undefined): readonly string[] {
  const found = absent?.get(indexPath(node.field));
  return found ? fuzzyGrams(node.text).filter((gram) => !found.has(gram)) : fuzzyGrams(node.text);
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

/** An index query and the index it is for. */
type TextIndexQuery = { readonly space: IndexSpace; readonly query: IndexQuery };

/**
 * textIndexQuery's answers per dialect, by what they depend on: the node's operator, path and
 * text, the count needed, and the grams no record holds on that path (or that none were probed).
 * Spelling out "k of n" (index-query.ts atLeast) is pure and dear: a levels read asks the same
 * answer several times per level, and compileRead compiles each SQLite statement twice, which
 * made it 9% of a SQLite fuzzy search at 100,000 records (scripts/bench-search.ts "fuzzy").
 * IndexQuery values are never changed once built, so one answer can serve every search.
 */
/** Most answers kept per dialect (the oldest go first): a bound on memory. */
const KEPT_QUERIES_MOST = 1024;
const keptQueries = new KeptPerOwner<TextIndexQuery>(KEPT_QUERIES_MOST);

/**
 * The index query for "the node's count is at least `need`" and which index it is for: keyword
 * words or fuzzy trigrams, k of n; like needs every literal piece (a few of its terms: fewer-terms.ts).
 */
export function textIndexQuery(node: TextNode, ctx: CompileContext, need: number): TextIndexQuery {
  const absent = ctx.absent === undefined ? null : [...(ctx.absent.get(indexPath(node.field)) ?? [])].sort();
  const key = JSON.stringify([node.op, indexPath(node.field), node.field.path, node.text, need, absent]);
  let answer = keptQueries.get(ctx.d, key);
  if (!answer) keptQueries.set(ctx.d, key, (answer = buildTextIndexQuery(node, ctx, need)));
  return answer;
}

function buildTextIndexQuery(node: TextNode, ctx: CompileContext, need: number): TextIndexQuery {
  const { d } = ctx;
  if (node.op === 'keyword')
    return {
      space: 'words',
      query: atLeast(
        keywordWords(node.text).map((word) => d.indexWord(node.field, word)),
        need,
      ),
    };
  if (node.op === 'fuzzy') {
    const absent = ctx.absent?.get(indexPath(node.field));
    const grams = fuzzyGrams(node.text);
    // Every gram that occurs is needed: one across a space is asked as its word pair (an "all of" part stays one part).
    const every = need >= grams.filter((gram) => !absent?.has(gram)).length;
    // A gram no record holds is `false`: "k of n" then names only the grams that occur.
    const units = grams.map((gram) => (absent?.has(gram) ? false : d.indexGram(node.field, gram, every)));
    const query = atLeast(units, need, FUZZY_INDEX_UNITS);
    // Without the probe, every trigram stays: one no record holds makes an "all of" part empty at once, where dropping it would not.
    if (!ctx.absent) return { space: 'text', query };
    return {
      space: 'text',
      query: typeof query === 'object' && 'op' in query && query.op === 'or' ? anyOf(query.items.map((item) => fewerTerms(item))) : fewerTerms(query),
    };
  }
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
