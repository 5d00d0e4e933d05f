import {
  matchesFilter,
  parseSearchParams,
  runSearch,
  scoreRecord,
  type FieldType,
  type RunSearchOptions,
  type SearchDatabase,
  type SearchDialect,
  type SearchScope,
} from '../../engine/search/index.js';

/** Code point order, as the backends order ids (UTF-16 order differs past U+FFFF). */
export function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) as number) - (y[i]?.codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** A hit as the search tests compare them: its id and its score. */
export type Hit = [string, number];

/** A page's hits as {@link Hit}s. */
export function hitsOf(page: { hits: ReadonlyArray<{ id: string; score: number }> }): Hit[] {
  return page.hits.map((hit): Hit => [hit.id, hit.score]);
}

/**
 * Every record `filter` matches, as the in-memory evaluator finds and scores it, best score first
 * and then by id in code point order (the order a search answers in): what every plan of the
 * engine must answer, whichever way it reads. `id` names the record's id field.
 */
export function evaluatorHits(filter: unknown, fields: Record<string, FieldType>, records: ReadonlyArray<Record<string, unknown>>, id = 'id'): Hit[] {
  const node = parseSearchParams({ query: { filter } }, fields).filter;
  if (!node) throw new Error('a filter was expected');
  return records
    .filter((record) => matchesFilter(node, record))
    .map((record): Hit => [String(record[id]), scoreRecord(node, record)])
    .sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0]));
}

/** {@link evaluatorHits} cut into pages of `size`: at least one page, empty when nothing matches (as a search answers). */
export function evaluatorPages(
  filter: Record<string, unknown>,
  fields: Record<string, FieldType>,
  records: ReadonlyArray<Record<string, unknown>>,
  size: number,
): Hit[][] {
  const all = evaluatorHits(filter, fields, records);
  const pages: Hit[][] = [];
  for (let start = 0; start < all.length || pages.length === 0; start += size) pages.push(all.slice(start, start + size));
  return pages;
}

/** Where {@link searchPages} searches: a database of one backend, its dialect, and a scope with its fields. */
export interface SearchTarget {
  db: SearchDatabase;
  dialect: SearchDialect;
  scope: SearchScope;
  fields: Record<string, FieldType>;
}

/** Every page of a search, `size` hits at a time, each next page from the cursor of the one before (at most `most` pages, so a cursor loop fails instead of hanging). */
export async function searchPages(
  target: SearchTarget,
  filter: Record<string, unknown>,
  size: number,
  options: RunSearchOptions = {},
  most = 1000,
): Promise<Hit[][]> {
  const found: Hit[][] = [];
  let cursor: string | null = null;
  do {
    const page = await runSearch(
      target.db,
      target.dialect,
      target.scope,
      parseSearchParams({ query: { filter }, limit: size, cursor }, target.fields),
      options,
    );
    found.push(hitsOf(page));
    cursor = page.next_cursor;
  } while (cursor && found.length < most);
  return found;
}
