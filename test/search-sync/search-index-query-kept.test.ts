/**
 * A text node's index query is built once and kept per dialect (engine/search/text-sql.ts
 * textIndexQuery), keyed by what it depends on, among which the grams no record holds on its path
 * (gram-presence.ts). Writes that bring such a gram into a record, or take the last one out, must
 * give the next search a query built for the new grams: a query kept from before would still treat
 * a present gram as absent and miss the records it alone lets reach a level. Each search, after
 * every write, is held to the in-memory evaluator on both backends, in the same process, so the
 * kept answers of earlier searches are there to be wrongly reused. The same holds for the candidate
 * lists SQLite keeps per connection at a data version (sqlite-index-lists.ts): a write changes
 * the version, and a list read before it must not be taken for the next search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { evaluatorHits, hitsOf } from '../support/search-evaluator.js';
import { type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string' };
const SCOPE: SearchScope = { connectorId: 'kept-queries', entity: 'tasks' };

/** Queries whose trigrams come and go with the writes below; the last two share a node with a keyword. */
const QUERIES: Record<string, unknown>[] = [
  { fuzzy: { name: 'abcd' } },
  { fuzzy: { name: 'dcba abc' } },
  { fuzzy: { name: 'bcda' } },
  { fuzzy: { name: 'abab cdcd' } },
  { and: [{ fuzzy: { name: 'abcd' } }, { keyword: { name: 'ab cd' } }] },
  { or: [{ fuzzy: { name: 'dcba' } }, { keyword: { name: 'abcd' } }] },
];

/** Pieces of names: near misses of the queries' words, so their grams come and go with each write. */
const PIECES = ['ab', 'abc', 'abcd', 'bcda', 'dcba', 'cd', 'cdcd', 'abab', 'bc', 'da', 'dab', 'xy'];

/** 40 writes over 12 ids, in a fixed order: names of one to three pieces, so each query's grams are often absent, then present, then gone. */
function writes(): Array<Record<string, unknown>> {
  return Array.from({ length: 40 }, (_, i) => ({
    id: `r${(i * 5) % 12}`,
    name: Array.from({ length: 1 + (i % 3) }, (_, k) => PIECES[(i * 7 + k * 5 + Math.floor(i / 12)) % PIECES.length]).join(' '),
  }));
}

describe.each(SEARCH_BACKENDS)('kept index queries on $name', ({ open }) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, [{ id: 'r0', name: 'ab' }], 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('answers every query as the evaluator does after each write that brings or takes a gram', async () => {
    const records = new Map<string, Record<string, unknown>>([['r0', { id: 'r0', name: 'ab' }]]);
    let matched = 0;
    for (const [step, record] of writes().entries()) {
      await backend.upsert(SCOPE, [record], 'id');
      records.set(String(record.id), record);
      for (const filter of QUERIES) {
        const page = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ query: { filter }, limit: 100 }, FIELDS));
        const expected = evaluatorHits(filter, FIELDS, [...records.values()]);
        expect({ step, filter, hits: hitsOf(page) }).toEqual({ step, filter, hits: expected });
        matched += expected.length;
      }
    }
    // The queries matched records at many steps: the comparison above was not of empty pages.
    expect(matched).toBeGreaterThan(200);
  }, 120_000);
});
