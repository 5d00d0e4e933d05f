/**
 * Fuzzy matches are read by score level, best first, from the best level some record can reach
 * (score-levels.ts, run-levels.ts): the text index is probed for the query's trigrams no record
 * holds, each level's rows are met in id order and tested behind a gate of trigram runs
 * (fuzzy-gate.ts). Every query is held to the in-memory evaluator (scoreRecord),
 * page by page with the cursors carried, on both backends and on every path a level can take:
 * windows of rows in id order of several sizes, candidates read ahead (SQLite) or not, a loose
 * level's candidates kept in id order (SQLite), and on
 * PostgreSQL a lone client (no probe, one statement). Level scores are held to the evaluator's
 * floats exactly (two shares over a common denominator can add up to one value and to floats an
 * ulp apart). The records give ties, trigrams present and
 * absent, empty and sparse best levels, letters outside ASCII, arrays and nested paths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseSearchParams,
  registerSearchFunctions,
  runSearch,
  type FieldType,
  type RunSearchOptions,
  type SearchDatabase,
  type SearchScope,
} from '../../engine/search/index.js';
import { evaluatorPages, hitsOf, searchPages } from '../support/search-evaluator.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', notes: 'string', done: 'boolean', tags: 'array', owner: 'object' };
const SCOPE: SearchScope = { connectorId: 'fuzzy', entity: 'tasks' };

const WORDS = ['quarterly', 'report', 'review', 'release', 'roadmap', 'budget', 'quartz', 'reporter', 'port', 'art'];
/** Names that hold the probed queries' trigrams in every arrangement: whole, misspelt, apart, folded, outside ASCII, and not at all. */
const ODD_NAMES: unknown[] = [
  'quarterly report',
  'QUARTERLY REPORT',
  'Quarterly Report 2024',
  'quartrly reprot',
  'quarterly  report',
  'quarterly\treport',
  'report quarterly',
  'quärterly répört',
  'QUÄRTERLY report',
  'quarterlyreport',
  'q u a r t e r l y',
  'zzz',
  '',
  42,
  null,
  ['quarterly report'],
  { name: 'quarterly report' },
  'sécurité audit',
  'securite audit',
  'Ünïcödé ñame',
];
const TAGS: unknown[][] = [
  ['urgent', 'later'],
  ['urgnt'],
  [],
  ['Ürgent', 'later'],
  [5, 'urgent'],
  ['later', 'urgent now'],
  ['ugent'],
  ['quarterly report', 'zzz'],
];

/** 400 records: a quarter built from the odd names, the rest from three words each, most of them shared (ties). */
const RECORDS = Array.from({ length: 400 }, (_, i) => {
  const record: Record<string, unknown> = {
    id: `r${String(i).padStart(3, '0')}`,
    notes: `${WORDS[(i * 3) % WORDS.length]} invoice ${i % 4 === 0 ? 'hiring' : 'audit'}`,
    done: i % 3 === 0,
    tags: TAGS[i % TAGS.length],
    owner: i % 5 === 0 ? null : { name: `${['Dee', 'Ann'][i % 2]} ${WORDS[(i * 7) % WORDS.length]}` },
  };
  const name = i % 4 === 0 ? ODD_NAMES[(i / 4) % ODD_NAMES.length] : `${WORDS[i % 7]} ${WORDS[(i * 5 + 1) % 10]} ${WORDS[(i * 11 + 2) % 9]}`;
  if (name !== undefined && i % 97 !== 13) record.name = name;
  return record;
});

const QUERIES: Record<string, unknown>[] = [
  // 6 of its 15 trigrams are in no name: the best levels are empty.
  { fuzzy: { name: 'quartrly reprot' } },
  // Every trigram occurs, all together in a handful of names only: the best level is sparse.
  { fuzzy: { name: 'quarterly report' } },
  { fuzzy: { name: 'QUARTERLY' } },
  { fuzzy: { name: 'report quarterly' } },
  { fuzzy: { name: 'quärterly répört' } },
  { fuzzy: { name: 'sécurité' } },
  { fuzzy: { name: 'zzqx wvy' } },
  { fuzzy: { name: 'art' } },
  { fuzzy: { tags: 'urgnt' } },
  { fuzzy: { tags: 'quarterly reprt' } },
  { fuzzy: { 'owner.name': 'dee relase' } },
  { and: [{ fuzzy: { name: 'quartrly reprot' } }, { eq: { done: true } }] },
  { and: [{ fuzzy: { name: 'quarterly' } }, { fuzzy: { notes: 'invoce' } }] },
  { and: [{ fuzzy: { name: 'quartrly reprot' } }, { keyword: { notes: 'hiring audit' } }] },
  // Scores whose shares add up to one value over a common denominator, and to floats an ulp apart.
  { and: [{ keyword: { notes: 'invoice hiring budget' } }, { keyword: { name: 'quarterly report review release roadmap budget quartz' } }] },
  // Not every hit must match the fuzzy node: its levels run down to a count of 0.
  { or: [{ fuzzy: { name: 'quartrly' } }, { keyword: { notes: 'hiring' } }] },
  { or: [{ fuzzy: { name: 'roadmap' } }, { eq: { done: true } }] },
  { and: [{ fuzzy: { name: 'repport' } }, { not: { fuzzy: { name: 'quartrly' } } }] },
];

/** What the evaluator answers over `records`, cut into pages of `size`. */
const expectedPages = (filter: Record<string, unknown>, size: number, records: ReadonlyArray<Record<string, unknown>> = RECORDS) =>
  evaluatorPages(filter, FIELDS, records, size);

describe.each(SEARCH_BACKENDS)('fuzzy score levels on $name', ({ name, open }) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, RECORDS, 'id');
    // PostgreSQL: statistics list the common trigram terms, which the probe takes as held without asking (pg-common-terms.ts).
    if (name === 'postgres') await (backend.db as pg.Pool).query('ANALYZE search_records');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  /** Every page of a filter, `size` hits at a time, each next page from the cursor of the one before. */
  const pages = (db: SearchDatabase, filter: Record<string, unknown>, size: number, options: RunSearchOptions) =>
    searchPages({ db, dialect: backend.dialect, scope: SCOPE, fields: FIELDS }, filter, size, options, 500);

  // The windows read no level list (SQLite keeps a loose level's candidates in id order: sqlite-level-lists.ts), which has a way of its own.
  const ways: Array<[string, RunSearchOptions]> = [
    ['as planned', {}],
    ['a window of 3 rows', { levelWindowRows: 3, levelListMost: 0 }],
    ['a window of 1 row', { levelWindowRows: 1, levelListMost: 0 }],
    ['a window of 40 rows, no candidates read ahead', { levelWindowRows: 40, indexListMost: 0, levelListMost: 0 }],
    ['level lists of up to 10,000 candidates', { levelListMost: 10_000 }],
    // The index's candidates in id order at once, where a level asks the index (PostgreSQL: where the statistics say its terms are too rare to fill a page within the window).
    ['no window', { levelWindowRows: 0, levelListMost: 0 }],
    ['no window, no candidates read ahead', { levelWindowRows: 0, indexListMost: 0, levelListMost: 0 }],
  ];

  it('answers every query as the evaluator does, page by page, whichever way its levels are read', async () => {
    for (const filter of QUERIES) {
      for (const size of [9, 1000]) {
        const want = expectedPages(filter, size);
        for (const [way, options] of ways) {
          expect({ filter, size, way, pages: await pages(backend.db, filter, size, options) }).toEqual({ filter, size, way, pages: want });
        }
      }
    }
  }, 300_000);

  it('finds a record written since the last search that holds trigrams no record held before', async () => {
    // A scope of its own, and a query with trigrams no name of any scope holds (qxj, xjv, jvw, ...): the probe finds them absent.
    const scope: SearchScope = { connectorId: 'fuzzy', entity: 'written' };
    const records: Array<Record<string, unknown>> = Array.from({ length: 60 }, (_, i) => ({
      id: `w${String(i).padStart(2, '0')}`,
      name: `${WORDS[i % 5]} ${WORDS[(i * 3 + 1) % 5]}`,
    }));
    await backend.upsert(scope, records, 'id');
    const filter = { fuzzy: { name: 'quarterly qxjvw' } };
    const search = async () => {
      const page = await runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: 1000 }, FIELDS));
      return [hitsOf(page)];
    };
    // Twice: the second search may take what the first one's probe found (SQLite keeps it per connection).
    for (let i = 0; i < 2; i++) expect(await search()).toEqual(expectedPages(filter, 1000, records));
    records.push({ id: 'w99', name: 'quarterly qxjvw' });
    await backend.upsert(scope, records.slice(-1), 'id');
    const withNew = await search();
    expect(withNew[0]?.[0]).toEqual(['w99', 1]);
    expect(withNew).toEqual(expectedPages(filter, 1000, records));
    expect(await search()).toEqual(expectedPages(filter, 1000, records));
    // And gone again: trigrams that turn absent leave the answer exact too.
    records[records.length - 1] = { id: 'w99', name: 'budget' };
    await backend.upsert(scope, records.slice(-1), 'id');
    for (let i = 0; i < 2; i++) expect(await search()).toEqual(expectedPages(filter, 1000, records));
  }, 60_000);

  it.runIf(name === 'postgres')(
    'answers the same on a lone client, which reads every level in one statement',
    async () => {
      const client = await (backend.db as pg.Pool).connect();
      try {
        for (const filter of QUERIES) {
          for (const size of [9, 1000]) {
            for (const [way, options] of ways.slice(1, 2)) {
              expect({ filter, size, way, pages: await pages(client, filter, size, options) }).toEqual({
                filter,
                size,
                way,
                pages: expectedPages(filter, size),
              });
            }
          }
        }
      } finally {
        client.release();
      }
    },
    120_000,
  );
});

/**
 * SQLite keeps a probe's answer for the next search of the same query on its connection while its
 * data version holds (known-absent.ts, sqlite-data-version.ts); PostgreSQL probes every time. A
 * write through another connection or pool that brings trigrams no record held must show in the
 * next search.
 */
describe('fuzzy searches after a write from elsewhere', () => {
  const scope: SearchScope = { connectorId: 'fuzzy', entity: 'elsewhere' };
  const filter = { fuzzy: { name: 'quartrly reprot' } };
  const records: Array<Record<string, unknown>> = Array.from({ length: 40 }, (_, i) => ({
    id: `e${String(i).padStart(2, '0')}`,
    name: `${WORDS[i % 5]} ${WORDS[(i * 3 + 1) % 5]}`,
  }));
  const written = { id: 'e99', name: 'quartrly reprot' };

  async function expectAnswers(db: SearchDatabase, dialect: 'sqlite' | 'postgres', held: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    const page = await runSearch(db, dialect, scope, parseSearchParams({ query: { filter }, limit: 1000 }, FIELDS));
    expect([hitsOf(page)]).toEqual(expectedPages(filter, 1000, held));
  }

  it('on SQLite, through another connection to the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzzy-elsewhere-'));
    const writer = openSqliteSearchBackend(join(dir, 'records.db'));
    const reader = new Database(join(dir, 'records.db'));
    registerSearchFunctions(reader);
    try {
      await writer.upsert(scope, records, 'id');
      for (let i = 0; i < 2; i++) await expectAnswers(reader, 'sqlite', records);
      await writer.upsert(scope, [written], 'id');
      await expectAnswers(reader, 'sqlite', [...records, written]);
    } finally {
      reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL, through another pool', async () => {
    const backend = await openPostgresSearchBackend();
    const other = new pg.Pool({ connectionString: (backend.db as pg.Pool).options.connectionString, max: 1 });
    try {
      await backend.upsert(scope, records, 'id');
      for (let i = 0; i < 2; i++) await expectAnswers(backend.db, 'postgres', records);
      await other.query(`INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES ($1, $2, $3, $4, now())`, [
        scope.connectorId,
        scope.entity,
        written.id,
        JSON.stringify(written),
      ]);
      await expectAnswers(backend.db, 'postgres', [...records, written]);
    } finally {
      await other.end();
      await backend.close();
    }
  }, 60_000);
});
