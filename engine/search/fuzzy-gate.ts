import { indexPath } from './field-path.js';
import type { TextNode } from './scoring-nodes.js';
import type { CompileContext, FuzzyGate } from './sql-dialect.js';
import { fuzzyGrams } from './text-match.js';

/**
 * The gate a fuzzy count of at least `count` passes (SqlDialect.textCount): of the query's
 * trigrams that some record holds (all of them unless ctx.absent says otherwise, gram-presence.ts),
 * a value with `count` of them misses at most the rest, so each run of one more than that, in the
 * query's order, holds one of its trigrams. Neighbouring trigrams mostly come from one word, so
 * most values fail a run after a trigram or two, where the count looks for every trigram: a row
 * that cannot be on a level costs about a third of its exact count. Undefined for a count of 0,
 * which every value has.
 */
export function fuzzyGate(node: TextNode, count: number, ctx: CompileContext): FuzzyGate | undefined {
  if (node.op !== 'fuzzy' || count <= 0) return undefined;
  const absent = ctx.absent?.get(indexPath(node.field));
  const present = fuzzyGrams(node.text).filter((gram) => !absent?.has(gram));
  const size = present.length - count + 1;
  // More than the trigrams that occur (no level asks it): the count alone answers.
  if (size <= 0) return undefined;
  const groups: string[][] = [];
  for (let start = 0; start + size <= present.length; start += size) groups.push(present.slice(start, start + size));
  // Trigrams left over join the last run: a longer run still holds one.
  (groups[groups.length - 1] as string[]).push(...present.slice(groups.length * size));
  return groups;
}
