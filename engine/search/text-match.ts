/**
 * The exact meaning of the text operators (`like`, `fuzzy`, `keyword`), written once so that the
 * SQL of both dialects and the in-memory evaluator agree to the last character. Case folding is
 * ASCII-only (A-Z -> a-z), because that is what SQLite's lower() and LIKE do and what PostgreSQL
 * does under the "C" collation the compiler pins; letters outside ASCII compare as written.
 */

/** A `fuzzy` match needs at least this share of the query's trigrams to occur in the value. */
export const FUZZY_MIN_SIMILARITY = 0.5;

/**
 * ASCII characters that separate `keyword` words: every ASCII character that is not a letter or a
 * digit (control characters included). Everything else, non-ASCII included, is a word character.
 * This is exactly how SQLite's FTS5 `ascii` tokenizer splits text, so its word index answers
 * `keyword` without a second opinion.
 */
export const KEYWORD_SEPARATORS = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code))
  .filter((char) => !/[A-Za-z0-9]/.test(char))
  .join('');

const SEPARATOR_SET = new Set(KEYWORD_SEPARATORS);

/** ASCII-only lower-casing, the one case folding every backend can do identically. */
export function foldCase(value: string): string {
  return value.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/**
 * The SQL LIKE pattern (escape character `\`) for a `like` value: folded, `%` stays the only
 * wildcard, `_` and `\` are literal.
 */
export function likeSqlPattern(pattern: string): string {
  return foldCase(pattern).replace(/[\\_]/g, (char) => `\\${char}`);
}

/**
 * The literal pieces between the `%` wildcards, folded, in order. A piece at the start of a pattern
 * that does not begin with `%` is anchored to the start of the value (`start`), likewise at the
 * end: an index may then also require the value's edge next to it.
 */
export function likePieces(pattern: string): Array<{ text: string; start: boolean; end: boolean }> {
  const pieces = foldCase(pattern).split('%');
  return pieces.map((text, i) => ({ text, start: i === 0, end: i === pieces.length - 1 })).filter((piece) => piece.text.length > 0);
}

/** Whether a string matches a `like` pattern (whole value, `%` = any run of characters). */
export function likeMatches(value: string, pattern: string): boolean {
  const source = foldCase(pattern)
    .split('%')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`, 'u').test(foldCase(value));
}

/** How many queries' trigrams fuzzyGrams keeps (the oldest go first). */
const KEPT_GRAMS = 256;
const gramsOf = new Map<string, readonly string[]>();

/**
 * The distinct trigrams of a `fuzzy` query: folded, whitespace runs collapsed to one space, padded
 * with one space each side (so word starts and ends count, and short words still have grams).
 * Trigrams that span a space reward the words appearing in the query's order. Empty for a query
 * with no words.
 */
export function fuzzyGrams(query: string): readonly string[] {
  const known = gramsOf.get(query);
  if (known) return known;
  const words = foldCase(query)
    .trim()
    .replace(/[ \t\n\r]+/g, ' ');
  const chars = Array.from(` ${words} `);
  const grams = new Set<string>();
  for (let i = 0; words.length > 0 && i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  const found = Object.freeze([...grams]);
  // A search asks for the same query's trigrams at every step of its compiling (dozens of times): they are kept for a while.
  if (gramsOf.size >= KEPT_GRAMS) gramsOf.delete(gramsOf.keys().next().value as string);
  gramsOf.set(query, found);
  return found;
}

/** The text a fuzzy gram is looked for in: the folded value padded with one space each side. */
export function fuzzyHaystack(value: string): string {
  return ` ${foldCase(value)} `;
}

/** Share of the query's trigrams found in the value, 0..1. */
export function fuzzyScore(value: string, grams: readonly string[]): number {
  const haystack = fuzzyHaystack(value);
  let found = 0;
  for (const gram of grams) if (haystack.includes(gram)) found++;
  return found / grams.length;
}

/** The distinct words of a `keyword` query (folded, split at ASCII separators). */
export function keywordWords(query: string): string[] {
  const words = new Set<string>();
  let current = '';
  for (const char of foldCase(query)) {
    if (SEPARATOR_SET.has(char)) {
      if (current) words.add(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (current) words.add(current);
  return [...words];
}

/** The folded value with separators turned into spaces and one space each side, so ` word ` finds whole words. */
export function keywordHaystack(value: string): string {
  let out = ' ';
  for (const char of foldCase(value)) out += SEPARATOR_SET.has(char) ? ' ' : char;
  return `${out} `;
}

/**
 * Share of the query's words that occur as whole words in the values, 0..1. Several values (the
 * elements of an array field) count together: a word found in any of them is found. That is the
 * share a word index keyed by field (not by element) can tell, and "any of the words" matches
 * exactly when some element holds some word, as for one value.
 */
export function keywordScore(values: readonly string[], words: readonly string[]): number {
  const haystacks = values.map(keywordHaystack);
  let found = 0;
  for (const word of words) if (haystacks.some((haystack) => haystack.includes(` ${word} `))) found++;
  return found / words.length;
}

/** Code point order (what SQLite BINARY and PostgreSQL "C" give), unlike JavaScript's UTF-16 `<`. */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}
