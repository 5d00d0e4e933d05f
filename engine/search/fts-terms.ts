import { fuzzyGrams, keywordWords, likeFragments } from './text-match.js';
import type { TextNode } from './scoring-nodes.js';

/**
 * The substrings an index may look for to narrow a text node down, and whether a record needs all
 * or any of them. Every record the node matches contains them (each string of a record is indexed
 * padded with spaces, as fuzzy grams expect), so the index only ever removes non-matches. Null when
 * no substring is long enough for a trigram index (three characters).
 */
export function textIndexTerms(node: TextNode): { mode: 'all' | 'any'; terms: string[] } | null {
  const long = (term: string) => Array.from(term).length >= 3;
  if (node.op === 'like') {
    const terms = likeFragments(node.text).filter(long);
    return terms.length > 0 ? { mode: 'all', terms } : null;
  }
  const terms = node.op === 'fuzzy' ? fuzzyGrams(node.text) : keywordWords(node.text);
  return terms.every(long) ? { mode: 'any', terms } : null;
}
