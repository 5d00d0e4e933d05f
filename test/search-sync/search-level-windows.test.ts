/**
 * Score levels read in id order through a window, then through the text index past it
 * (plan-levels.ts, plan-window.ts). On PostgreSQL a level with no window of its own shrinks it to
 * sqrt(2.5 x the table's rows as ANALYZE counted them x page) (windowLimit): on these 600 records,
 * 77 to 248 rows for pages of 3 to 40, so many hits of every level are found past the window. Every query is held to the
 * in-memory evaluator, page by page with the cursors carried, on both backends, as loaded (before
 * statistics, when autovacuum has not analyzed the table yet: the full window) and once analyzed.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesFilter, parseSearchParams, runSearch, scoreRecord, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', notes: 'string', done: 'boolean' };
const SCOPE: SearchScope = { connectorId: 'windows', entity: 'tasks' };

const WORDS = ['release', 'design', 'audit', 'hiring', 'invoice', 'roadmap', 'sprint', 'budget', 'review', 'launch', 'security'];

/** 600 records: names of three words (common pairs and rare ones), notes of five, some without a name or with a name that is not text. */
const RECORDS = Array.from({ length: 600 }, (_, i) => {
  const record: Record<string, unknown> = {
    id: `w${String(i).padStart(4, '0')}`,
    notes: Array.from({ length: 5 }, (_, j) => WORDS[(i * (j + 3) + j * j) % WORDS.length]).join(' '),
    done: i % 3 === 0,
  };
  if (i % 53 === 7) record.name = 42;
  else if (i % 41 !== 5) record.name = `${WORDS[i % 7]} ${WORDS[(i * 5 + 1) % 11]} ${i % 37 === 0 ? 'Release DESIGN' : WORDS[(i * 3 + 2) % 9]}`;
  return record;
});

const QUERIES: Record<string, unknown>[] = [
  // Both words in a few names (the best level is sparse), one of them in many.
  { keyword: { name: 'release design' } },
  { keyword: { notes: 'invoice hiring' } },
  { keyword: { name: 'audit security launch' } },
  { and: [{ keyword: { name: 'release design' } }, { eq: { done: false } }] },
  { or: [{ keyword: { name: 'sprint' } }, { keyword: { notes: 'budget review' } }] },
];

const hitsOf = (page: { hits: { id: string; score: number }[] }) => page.hits.map((hit): [string, number] => [hit.id, hit.score]);

/** What the evaluator answers, cut into pages of `size`. */
function expectedPages(filter: Record<string, unknown>, size: number): Array<Array<[string, number]>> {
  const node = parseSearchParams({ query: { filter } }, FIELDS).filter;
  if (!node) throw new Error('a filter was expected');
  const all = RECORDS.filter((record) => matchesFilter(node, record))
    .map((record): [string, number] => [record.id as string, scoreRecord(node, record)])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const pages: Array<Array<[string, number]>> = [];
  for (let start = 0; start < all.length || pages.length === 0; start += size) pages.push(all.slice(start, start + size));
  return pages;
}

describe.each(SEARCH_BACKENDS)('score levels through a window scaled to the table on $name', ({ name, open }) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, RECORDS, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  /** Every page of a filter, `size` hits at a time, each next page from the cursor of the one before. */
  async function pages(filter: Record<string, unknown>, size: number): Promise<Array<Array<[string, number]>>> {
    const found: Array<Array<[string, number]>> = [];
    let cursor: string | null = null;
    do {
      const page = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS));
      found.push(hitsOf(page));
      cursor = page.next_cursor;
    } while (cursor && found.length < 500);
    return found;
  }

  async function expectEvaluatorPages(): Promise<void> {
    for (const filter of QUERIES) {
      for (const size of [3, 7, 40, 1000]) {
        expect({ filter, size, pages: await pages(filter, size) }).toEqual({ filter, size, pages: expectedPages(filter, size) });
      }
    }
  }

  it('answers every query as the evaluator does, page by page, as loaded', expectEvaluatorPages, 120_000);

  it('answers every query as the evaluator does, page by page, once the table is analyzed (PostgreSQL: windows of 77 to 248 rows)', async () => {
    if (name === 'postgres') await (backend.db as pg.Pool).query('ANALYZE search_records');
    await expectEvaluatorPages();
  }, 120_000);
});
