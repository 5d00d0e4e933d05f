/**
 * Score levels read in id order, then through the text index past what was read (plan-levels.ts,
 * plan-window.ts, plan-walk.ts). On PostgreSQL a level with no window of its own walks first
 * (1,010 rows for a page of 100, fewer when the tests size the walks), walks on as far as the
 * density found says a page needs (up to sqrt(2.5 x the table's rows as ANALYZE counted them x
 * page)), then reads the index's candidates past the walk; a keyword's rows met in id order are
 * tested for its words as substrings before the exact count (postgresDialect.textGate). Every
 * query is held to the in-memory evaluator, page by page with the cursors carried, on both
 * backends, as loaded (before statistics, when autovacuum has not analyzed the table yet) and once
 * analyzed, with the walks as worked out and sized small so that pages start, end and cross each
 * part's edge everywhere in the data.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldType, RunSearchOptions, SearchDatabase, SearchScope } from '../../engine/search/index.js';
import { evaluatorPages, searchPages } from '../support/search-evaluator.js';
import { type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', notes: 'string', done: 'boolean' };
const SCOPE: SearchScope = { connectorId: 'windows', entity: 'tasks' };

const WORDS = ['release', 'design', 'audit', 'hiring', 'invoice', 'roadmap', 'sprint', 'budget', 'review', 'launch', 'security'];

/**
 * Names a keyword's words are in as substrings but not as words, or in a value that is not a
 * string, or as words between separators other than spaces: a test of substrings lets them by, the
 * exact count must not (or must, for the last).
 */
const ODD_NAMES: unknown[] = ['prerelease designer audit', 'releases redesign', ['release', 'design'], { release: 'design' }, 'RELEASE-design/audit'];

/**
 * 600 records: names of three words (common pairs and rare ones), notes of five, some without a
 * name, with a name that is not text, or with an odd one (ODD_NAMES).
 */
const RECORDS = Array.from({ length: 600 }, (_, i) => {
  const record: Record<string, unknown> = {
    id: `w${String(i).padStart(4, '0')}`,
    notes: Array.from({ length: 5 }, (_, j) => WORDS[(i * (j + 3) + j * j) % WORDS.length]).join(' '),
    done: i % 3 === 0,
  };
  if (i % 53 === 7) record.name = 42;
  else if (i % 43 === 11) record.name = ODD_NAMES[Math.floor(i / 43) % ODD_NAMES.length];
  else if (i % 41 !== 5) record.name = `${WORDS[i % 7]} ${WORDS[(i * 5 + 1) % 11]} ${i % 37 === 0 ? 'Release DESIGN' : WORDS[(i * 3 + 2) % 9]}`;
  return record;
});

/** How PostgreSQL's walks are sized (first rows, most rows after); SQLite has none. */
const WALKS: Array<{ label: string; options: RunSearchOptions }> = [
  { label: 'walks as worked out', options: {} },
  { label: 'walks 1 then up to 1', options: { walkRows: { first: 1, budget: 1 } } },
  { label: 'walks 4 then up to 12', options: { walkRows: { first: 4, budget: 12 } } },
  { label: 'walks 10 then up to 400', options: { walkRows: { first: 10, budget: 400 } } },
  { label: 'walks 30 then none', options: { walkRows: { first: 30, budget: 0 } } },
];

const QUERIES: Record<string, unknown>[] = [
  // Both words in a few names (the best level is sparse), one of them in many.
  { keyword: { name: 'release design' } },
  { keyword: { notes: 'invoice hiring' } },
  { keyword: { name: 'audit security launch' } },
  { and: [{ keyword: { name: 'release design' } }, { eq: { done: false } }] },
  { or: [{ keyword: { name: 'sprint' } }, { keyword: { notes: 'budget review' } }] },
];

/** What the evaluator answers, cut into pages of `size`. */
const expectedPages = (filter: Record<string, unknown>, size: number) => evaluatorPages(filter, FIELDS, RECORDS, size);

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
  const pages = (filter: Record<string, unknown>, size: number, options: RunSearchOptions = {}, db: SearchDatabase = backend.db) =>
    searchPages({ db, dialect: backend.dialect, scope: SCOPE, fields: FIELDS }, filter, size, options, 500);

  async function expectEvaluatorPages(): Promise<void> {
    for (const filter of QUERIES) {
      for (const size of [3, 7, 40, 1000]) {
        expect({ filter, size, pages: await pages(filter, size) }).toEqual({ filter, size, pages: expectedPages(filter, size) });
      }
    }
  }

  it('answers every query as the evaluator does, page by page, as loaded', expectEvaluatorPages, 120_000);

  it('answers every query as the evaluator does, page by page, once the table is analyzed', async () => {
    if (name === 'postgres') await (backend.db as pg.Pool).query('ANALYZE search_records');
    await expectEvaluatorPages();
  }, 120_000);

  it('the data has a sparse best level and odd names on it and below it', () => {
    const top = (expectedPages({ keyword: { name: 'release design' } }, 1000)[0] ?? []).filter((hit) => hit[1] === 1);
    expect(top.length).toBeGreaterThan(10);
    expect(top.length).toBeLessThan(60);
    const odd = RECORDS.filter((record) => typeof record.name !== 'string' || /prerelease|releases|-design/.test(record.name)).map((record) => record.id);
    expect(odd.filter((id) => top.some((hit) => hit[0] === id)).length).toBeGreaterThan(0);
    expect(odd.filter((id) => !top.some((hit) => hit[0] === id)).length).toBeGreaterThan(5);
  });

  it('answers deep pages by score as the evaluator does, cursor to cursor, however the walks are sized', async () => {
    if (name === 'postgres') await (backend.db as pg.Pool).query('ANALYZE search_records');
    for (const filter of QUERIES.slice(0, 4)) {
      for (const { label, options } of WALKS) {
        for (const size of [3, 7, 40]) {
          expect({ filter, size, label, pages: await pages(filter, size, options) }).toEqual({ filter, size, label, pages: expectedPages(filter, size) });
        }
      }
    }
  }, 240_000);

  it.runIf(name === 'postgres')(
    "PostgreSQL reads a sparse level by walking in id order: with the text index naming no row, every page is still the evaluator's",
    async () => {
      // ANALYZE counts 600 rows: without the walk, a level's window is sqrt(2.5 x 600 x page) rows (77 to 389 here) and the
      // rows past it come from the index, which this transaction empties (its changes are rolled back). A walk of 1,010 rows
      // for a page reads them all in id order and asks the index nothing, and its keyword rows are tested on their text.
      const client = await (backend.db as pg.Pool).connect();
      try {
        await client.query('ANALYZE search_records');
        await client.query('BEGIN');
        await client.query('ALTER TABLE search_records ALTER COLUMN search_trigrams DROP EXPRESSION');
        await client.query(`UPDATE search_records SET search_trigrams = ''::tsvector`);
        for (const filter of QUERIES.slice(0, 4)) {
          for (const size of [7, 40]) {
            expect({ filter, size, pages: await pages(filter, size, {}, client) }).toEqual({ filter, size, pages: expectedPages(filter, size) });
          }
        }
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    },
    120_000,
  );
});
