import type { IndexQuery } from './index-query.js';

/** Most index terms a `like` asks for (see fewerTerms). */
export const MAX_LIKE_TERMS = 3;

/** A trigram with a space between two other characters: it spans the end of one word and the start of the next. */
function spansWords(text: string): boolean {
  const chars = Array.from(text).slice(-3);
  return chars.length === 3 && chars[1] === ' ' && chars[0] !== ' ' && chars[2] !== ' ';
}

/** `count` positions spread evenly over 0..length - 1, first and last included. */
function spread(length: number, count: number): number[] {
  if (count <= 0 || length === 0) return [];
  if (count === 1) return [0];
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * (length - 1)) / (count - 1))))];
}

/**
 * An AND of index terms cut down to at most `max` of them (any other query is returned as it is).
 * Rows holding every term still hold any subset, so the result stays a superset of the exact
 * matches, and the exact test decides. Each term costs the index a read of its posting list in the
 * field's range, however rare the other terms are: at 100,000 records (scripts/bench-search.ts,
 * "like %infix%") SQLite's FTS5 answers the 12 trigrams of "roadmap sprint" in 7 ms and three of
 * them in 0.5 ms, for 505 candidates either way. Kept first: trigrams that span two words (`p s`,
 * found in 1% of the names where `roa` is in 14%); then the first, the last and evenly spread others,
 * so each word keeps a term (a word's trigrams nearly always come together). Terms keep their order.
 */
export function fewerTerms(query: IndexQuery, max = MAX_LIKE_TERMS): IndexQuery {
  if (typeof query !== 'object' || !('op' in query) || query.op !== 'and' || query.items.length <= max) return query;
  const terms = query.items;
  if (!terms.every((item) => typeof item === 'object' && 'term' in item)) return query;
  const text = (i: number) => (terms[i] as { term: string }).term;
  const indexes = terms.map((_, i) => i);
  const spanning = indexes.filter((i) => spansWords(text(i))).slice(0, max);
  const others = indexes.filter((i) => !spanning.includes(i));
  const kept = new Set([...spanning, ...spread(others.length, max - spanning.length).map((j) => others[j] as number)]);
  return { op: 'and', items: terms.filter((_, i) => kept.has(i)) };
}
