import { createHash } from 'node:crypto';

/**
 * PostgreSQL's text index is pg_trgm's trigrams of every string in a record, and the string's
 * word pairs, kept as a tsvector (engine/store/record-table.ts). Two things make it answer per
 * field:
 *
 * - Each trigram is stored behind its field's code (the first four hex digits of the md5 of the
 *   field's path), so `name` and `notes` holding the same word give different terms. Two paths
 *   may share a code (1 in 65,536); the index is then a little less selective for them, never
 *   wrong, as the exact test follows.
 * - Our units (keyword words, fuzzy trigrams, like pieces) are translated into the pg_trgm
 *   trigrams that must be present whenever the unit is. pg_trgm splits text into words of letters
 *   and digits, pads each as "  word " and lower-cases it. Only ASCII letters and digits are
 *   word characters in every locale, so only runs of them are translated, and a run's padding is
 *   only claimed when the character next to it is known to end a word (ASCII, not a letter or
 *   digit, or the edge of the value).
 */

/** The code the index puts before a field's trigrams: what `left(md5(path), 4)` gives in PostgreSQL. */
export function pathCode(path: string): string {
  let code = codes.get(path);
  if (code === undefined) {
    code = createHash('md5').update(path, 'utf8').digest('hex').slice(0, 4);
    // A search names a path once per index term it writes: the codes of the paths seen are kept (a manifest has a few hundred at most).
    if (codes.size >= KEPT_CODES) codes.clear();
    codes.set(path, code);
  }
  return code;
}

const KEPT_CODES = 4096;
const codes = new Map<string, string>();

const isWordChar = (char: string) => /^[a-z0-9]$/.test(char);
const isBoundary = (char: string) => char.charCodeAt(0) < 128 && !isWordChar(char);

/**
 * The index terms every value containing `text` has: its pg_trgm trigrams, then (unless `pairs` is
 * false) its word pairs. `text` is folded; `start` and `end` say it is known to touch the value's
 * start or end. Empty when nothing is certain; a lone "  a" (some word starts with a) is left out
 * too: nearly every value has it, so asking the index for it costs a long posting list and
 * narrows nothing.
 */
export function pgTrigramsOf(text: string, start: boolean, end: boolean, pairs = true): string[] {
  const chars = Array.from(text);
  const out = new Set<string>();
  for (let i = 0; i < chars.length;) {
    if (!isWordChar(chars[i] as string)) {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && isWordChar(chars[j] as string)) j++;
    const left = i > 0 ? isBoundary(chars[i - 1] as string) : start;
    const right = j < chars.length ? isBoundary(chars[j] as string) : end;
    const padded = `${left ? '  ' : ''}${chars.slice(i, j).join('')}${right ? ' ' : ''}`;
    // "  a" says less than " ab" (every word starting "ab" starts "a") and has a long posting list.
    const first = left && j - i >= 2 ? 1 : 0;
    for (let k = first; k + 3 <= padded.length; k++) out.add(padded.slice(k, k + 3));
    i = j;
  }
  const trigrams = [...out];
  const terms = trigrams.length === 1 && trigrams[0]?.startsWith('  ') ? [] : trigrams;
  return pairs ? [...terms, ...wordPairsOf(chars)] : terms;
}

/**
 * The word pairs (schema version 11, engine/store/record-table.ts) every value containing `chars`
 * has: "X Y" for each single space with a non-space on both sides, any characters (the index
 * files every such pair of the folded value, and the pair says the two words stand side by side,
 * which pg_trgm's trigrams cannot).
 */
function wordPairsOf(chars: readonly string[]): string[] {
  const pairs = new Set<string>();
  for (let i = 1; i + 1 < chars.length; i++) {
    const [before, after] = [chars[i - 1] as string, chars[i + 1] as string];
    if (chars[i] === ' ' && before !== ' ' && after !== ' ') pairs.add(`${before} ${after}`);
  }
  return [...pairs];
}
