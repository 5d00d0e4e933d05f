/**
 * A page that starts inside a loose fuzzy score level (plan-levels.ts: its index query is "k of n"
 * trigrams) reads on SQLite the level's candidates in id order, kept on the connection per data
 * version (sqlite-level-lists.ts; from the second such page at a version on), and tests only
 * those after the cursor. Every page is held to the in-memory evaluator (matchesFilter,
 * scoreRecord) and every cursor to the one the id-ordered window gives (no list), on both backends; also across writes between pages (through the
 * searching connection and through another one), with ids whose code point order is not
 * JavaScript's string order, and with lists too long to be read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchesFilter,
  parseSearchParams,
  registerSearchFunctions,
  runSearch,
  scoreRecord,
  type FieldType,
  type RunSearchOptions,
  type SearchDatabase,
  type SearchScope,
} from '../../engine/search/index.js';
import { openSqliteSearchBackend, SEARCH_BACKENDS, type SearchBackend } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', done: 'boolean' };
const WORDS = ['quarterly', 'report', 'review', 'release', 'roadmap', 'budget', 'audit', 'sprint'];
/** Misspelt: 6 of its 15 trigrams are in no name, and its count of 8 is a loose level (8 of the 9 held). */
const FILTER = { fuzzy: { name: 'quartrly reprot' } };
const AND_FILTER = { and: [FILTER, { eq: { done: false } }] };

/** Ids that sort one way by code point (SQLite, PostgreSQL "C") and another by UTF-16 unit (JavaScript's `<`): U+FF10 and U+1F600. */
const ODD_IDS = ['t\uFF10', 't\u{1F600}', 't\uFF10a', 't\u{1F600}a', 'u\u00E9', 'u\uD7FF'];

/** 500 records, three words each (a deterministic walk), so that the loose level holds about a fifth of them. */
function records(count = 500): Array<Record<string, unknown>> {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    id: i < ODD_IDS.length ? ODD_IDS[i] : `t${String(i).padStart(4, '0')}`,
    // The odd ids are hits of the loose level (a count of 8: no "y r"), which its list must hold in code point order.
    name: i < ODD_IDS.length ? 'quarterly budget report' : Array.from({ length: 3 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '),
    done: i % 3 === 0,
  }));
}

/** Code point order, as the backends order ids. */
const byCodePoint = (a: string, b: string) => {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) as number) - (y[i]?.codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/** Every hit the evaluator finds, best first, then by id. */
function expectedHits(filter: Record<string, unknown>, held: ReadonlyArray<Record<string, unknown>>): Array<[string, number]> {
  const node = parseSearchParams({ query: { filter } }, FIELDS).filter;
  if (!node) throw new Error('a filter was expected');
  return held
    .filter((record) => matchesFilter(node, record))
    .map((record): [string, number] => [record.id as string, scoreRecord(node, record)])
    .sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0]));
}

interface Page {
  hits: Array<[string, number]>;
  cursor: string | null;
}

async function page(
  db: SearchDatabase,
  backend: SearchBackend,
  scope: SearchScope,
  filter: object,
  size: number,
  cursor: string | null,
  options: RunSearchOptions,
): Promise<Page> {
  const result = await runSearch(db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS), options);
  return { hits: result.hits.map((hit): [string, number] => [hit.id, hit.score]), cursor: result.next_cursor };
}

/** Every page of a filter, each from the cursor of the one before. */
async function allPages(
  db: SearchDatabase,
  backend: SearchBackend,
  scope: SearchScope,
  filter: object,
  size: number,
  options: RunSearchOptions,
): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const next = await page(db, backend, scope, filter, size, cursor, options);
    pages.push(next);
    cursor = next.cursor;
  } while (cursor && pages.length < 500);
  return pages;
}

/** Level lists read as the engine decides, always (as long as 10,000), never, and never for being too long. */
const WAYS: Array<[string, RunSearchOptions]> = [
  ['as planned', {}],
  ['lists up to 10,000', { levelListMost: 10_000 }],
  ['no lists', { levelListMost: 0 }],
  ['lists of at most 5 (too short)', { levelListMost: 5 }],
];

describe.each(SEARCH_BACKENDS)('loose score levels read from kept lists on $name', ({ open }) => {
  let backend: SearchBackend;
  const scope: SearchScope = { connectorId: 'lists', entity: 'tasks' };
  const held = records();
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(scope, held, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('pages every way as the evaluator does, with the cursors the window gives', async () => {
    for (const filter of [FILTER, AND_FILTER]) {
      const want = expectedHits(filter, held);
      // The loose level must hold many pages for the lists to matter.
      expect(want.filter(([, score]) => score === 8 / 15).length).toBeGreaterThan(25);
      for (const size of [7, 40]) {
        const windowed = await allPages(backend.db, backend, scope, filter, size, { levelListMost: 0 });
        expect(windowed.flatMap((p) => p.hits)).toEqual(want);
        for (const [way, options] of WAYS) {
          // Twice: the second run reads the lists the first one kept.
          for (let run = 0; run < 2; run++)
            expect({ way, run, pages: await allPages(backend.db, backend, scope, filter, size, options) }).toEqual({ way, run, pages: windowed });
        }
      }
    }
  }, 120_000);

  it('sees writes between pages: a hit added after the cursor and one before, a hit changed away, one deleted', async () => {
    const own: SearchScope = { connectorId: 'lists', entity: 'written' };
    const mine = records(300);
    await backend.upsert(own, mine, 'id');
    for (const [way, options] of WAYS.slice(0, 2)) {
      const first = await page(backend.db, backend, own, FILTER, 40, null, options);
      let cursor = first.cursor;
      // The second page inside the level at one data version reads its list (the first notes it): it is read now, and these writes must not be missed by the pages after.
      await page(backend.db, backend, own, FILTER, 7, cursor, options);
      const second = await page(backend.db, backend, own, FILTER, 7, cursor, options);
      expect(second.hits.every(([, score]) => score === 8 / 15)).toBe(true);
      const cursorId = second.hits[second.hits.length - 1]?.[0] as string;
      const after = expectedHits(FILTER, mine).filter(([id, score]) => score === 8 / 15 && byCodePoint(id, cursorId) > 0);
      const changes = [
        { id: `${cursorId}~new`, name: 'quarterly budget report', done: false },
        { id: 't0000~before', name: 'quarterly budget report', done: false },
        { id: after[0]?.[0], name: 'budget audit', done: false },
      ];
      await backend.upsert(own, changes, 'id');
      const deleted = after[1]?.[0] as string;
      if (backend.dialect === 'sqlite')
        (backend.db as Database.Database)
          .prepare('DELETE FROM search_records WHERE connector_id = ? AND entity = ? AND id = ?')
          .run(own.connectorId, own.entity, deleted);
      else
        await (backend.db as import('pg').Pool).query('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND id = $3', [
          own.connectorId,
          own.entity,
          deleted,
        ]);
      const now = [...mine.filter((record) => record.id !== deleted && !changes.some((change) => change.id === record.id)), ...changes];
      const rest: Array<[string, number]> = [];
      cursor = second.cursor;
      while (cursor) {
        const next = await page(backend.db, backend, own, FILTER, 7, cursor, options);
        rest.push(...next.hits);
        cursor = next.cursor;
      }
      const wantRest = expectedHits(FILTER, now).filter(([id, score]) => score < 8 / 15 || (score === 8 / 15 && byCodePoint(id, cursorId) > 0));
      expect({ way, rest }).toEqual({ way, rest: wantRest });
      expect(rest.map(([id]) => id)).toContain(`${cursorId}~new`);
      // Back as it was, for the next way.
      await backend.upsert(own, [...mine.filter((record) => changes.some((change) => change.id === record.id) || record.id === deleted)], 'id');
      const extra = changes.filter((change) => !mine.some((record) => record.id === change.id)).map((change) => change.id as string);
      for (const id of extra) {
        if (backend.dialect === 'sqlite')
          (backend.db as Database.Database)
            .prepare('DELETE FROM search_records WHERE connector_id = ? AND entity = ? AND id = ?')
            .run(own.connectorId, own.entity, id);
        else
          await (backend.db as import('pg').Pool).query('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND id = $3', [
            own.connectorId,
            own.entity,
            id,
          ]);
      }
    }
  }, 60_000);
});

describe('loose score levels on SQLite after a write through another connection', () => {
  it('the next page holds the new hit after the cursor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'level-lists-'));
    const writer = openSqliteSearchBackend(join(dir, 'records.db'));
    const reader = new Database(join(dir, 'records.db'));
    registerSearchFunctions(reader);
    const scope: SearchScope = { connectorId: 'lists', entity: 'elsewhere' };
    const mine = records(300);
    try {
      await writer.upsert(scope, mine, 'id');
      const options = { levelListMost: 10_000 };
      const first = await page(reader, writer, scope, FILTER, 40, null, options);
      const second = await page(reader, writer, scope, FILTER, 7, first.cursor, options);
      // The second page inside the level at this data version reads the list, kept for the pages after.
      const third = await page(reader, writer, scope, FILTER, 7, second.cursor, options);
      expect(await page(reader, writer, scope, FILTER, 7, second.cursor, options)).toEqual(third);
      const cursorId = second.hits[second.hits.length - 1]?.[0] as string;
      const added = { id: `${cursorId}~new`, name: 'quarterly budget report', done: false };
      await writer.upsert(scope, [added], 'id');
      const again = await page(reader, writer, scope, FILTER, 7, second.cursor, options);
      expect(again.hits[0]).toEqual([added.id, 8 / 15]);
      expect(again.hits.slice(1)).toEqual(third.hits.slice(0, 6));
      const wantRest = expectedHits(FILTER, [...mine, added]).filter(([id, score]) => score < 8 / 15 || (score === 8 / 15 && byCodePoint(id, cursorId) > 0));
      const rest: Array<[string, number]> = [];
      let cursor = second.cursor;
      while (cursor) {
        const next = await page(reader, writer, scope, FILTER, 7, cursor, options);
        rest.push(...next.hits);
        cursor = next.cursor;
      }
      expect(rest).toEqual(wantRest);
    } finally {
      reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a first page that goes on into the loose level reads it from the kept list from its second read at a data version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'level-lists-'));
    const writer = openSqliteSearchBackend(join(dir, 'records.db'));
    const statements: string[] = [];
    const reader = new Database(join(dir, 'records.db'), { verbose: (sql) => statements.push(String(sql)) });
    registerSearchFunctions(reader);
    const scope: SearchScope = { connectorId: 'lists', entity: 'first-page' };
    const mine = records(300);
    try {
      await writer.upsert(scope, mine, 'id');
      const want = expectedHits(FILTER, mine);
      // A page the levels above the loose one cannot fill: it goes on into that level from its first row, for 40 of its rows (a list
      // is worth reading for as many candidates as the rows a page needs tell: sqlite-level-lists.ts worthReading).
      const size = want.filter(([, score]) => score > 8 / 15).length + 40;
      expect(want.slice(0, size).filter(([, score]) => score === 8 / 15)).toHaveLength(40);
      // The loose level read from a kept list: its candidates' seqs joined to the table, instead of rows walked in id order.
      const fromList = () => statements.some((sql) => /FROM json_each\('\[[0-9,]+[^)]*\) AS k CROSS JOIN search_records AS r ON r\.seq = k\.value/.test(sql));
      const reads: boolean[] = [];
      for (let run = 0; run < 3; run++) {
        statements.length = 0;
        expect((await page(reader, writer, scope, FILTER, size, null, {})).hits).toEqual(want.slice(0, size));
        reads.push(fromList());
      }
      // The first read at this version notes the level; the second reads its list and the level from it, as does every read after at that version.
      expect(reads).toEqual([false, true, true]);
    } finally {
      reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
