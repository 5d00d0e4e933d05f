/**
 * Pages inside a loose fuzzy score level read on PostgreSQL the level's hits kept in id order for
 * the snapshot they read (pg-level-lists.ts; from the level's second read at a snapshot on), and
 * on SQLite its candidates kept per data version (sqlite-level-lists.ts). Every page is held to
 * the in-memory evaluator and to the pages read without lists, on both backends, and the pages
 * after writes between pages that move hits into, out of, up and down the level (through another
 * pool, and from a transaction that was in progress when the hits were read) hold the writes.
 * On PostgreSQL the statements sent show the hits were read and used.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type RunSearchOptions, type SearchDatabase, type SearchScope } from '../../engine/search/index.js';
import { watchQueries } from '../support/query-watch.js';
import { byCodePoint, evaluatorHits, hitsOf, type Hit } from '../support/search-evaluator.js';
import { SEARCH_BACKENDS, type SearchBackend } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string' };
const WORDS = ['quarterly', 'report', 'review', 'release', 'roadmap', 'budget', 'audit', 'sprint'];
/** Misspelt: 6 of its 15 trigrams are in no name; a count of 8 of the 9 held is a loose level. */
const FILTER = { fuzzy: { name: 'quartrly reprot' } };
const LEVEL = 8 / 15;
/** Lists read whatever their length (the tables here are too small for the engine's own bound to read one). */
const LISTED: RunSearchOptions = { levelListMost: 10_000 };

/** `count` records of three words each (a deterministic walk): about a fifth are in the loose level. */
function records(count: number): Array<Record<string, unknown>> {
  let state = 11;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    id: `t${String(i).padStart(4, '0')}`,
    name: Array.from({ length: 3 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '),
  }));
}

interface Page {
  hits: Hit[];
  cursor: string | null;
}

async function page(
  db: SearchDatabase,
  backend: SearchBackend,
  scope: SearchScope,
  size: number,
  cursor: string | null,
  options: RunSearchOptions,
): Promise<Page> {
  const result = await runSearch(db, backend.dialect, scope, parseSearchParams({ query: { filter: FILTER }, limit: size, cursor }, FIELDS), options);
  return { hits: hitsOf(result), cursor: result.next_cursor };
}

/** The pages from `cursor` to the end. */
async function pagesFrom(
  db: SearchDatabase,
  backend: SearchBackend,
  scope: SearchScope,
  size: number,
  cursor: string | null,
  options: RunSearchOptions,
): Promise<Page[]> {
  const pages: Page[] = [];
  do {
    const next = await page(db, backend, scope, size, cursor, options);
    pages.push(next);
    cursor = next.cursor;
  } while (cursor && pages.length < 500);
  return pages;
}

describe.each(SEARCH_BACKENDS)('deep pages of a loose fuzzy level from kept hits on $name', ({ open }) => {
  let backend: SearchBackend;
  /** The searches' own database: on PostgreSQL a pool of one connection whose statements are watched. */
  let db: SearchDatabase;
  let searchPool: pg.Pool | undefined;
  const sent: string[] = [];
  /** Statements that read a level's hits, and that read a level from them (plan-level-hits.ts). */
  const hitsReads = () => sent.filter((sql) => sql.includes('array_agg(c.id')).length;
  const hitsUsed = () => sent.filter((sql) => sql.includes('FROM unnest(')).length;

  beforeAll(async () => {
    backend = await open();
    db = backend.db;
    if (backend.dialect === 'postgres') {
      searchPool = new pg.Pool({ connectionString: (backend.db as pg.Pool).options.connectionString, max: 1 });
      watchQueries(searchPool, (args) => {
        const [first] = args;
        sent.push(typeof first === 'string' ? first : String((first as { text?: unknown }).text));
      });
      db = searchPool;
    }
  }, 60_000);
  afterAll(async () => {
    await searchPool?.end();
    await backend?.close();
  });

  it('pages as the evaluator does and as without lists, the level read once a snapshot', async () => {
    const scope: SearchScope = { connectorId: 'hits', entity: 'paged' };
    const held = records(1000);
    await backend.upsert(scope, held, 'id');
    const want = evaluatorHits(FILTER, FIELDS, held);
    expect(want.filter(([, score]) => score === LEVEL).length).toBeGreaterThan(40);
    const reads = hitsReads();
    for (const size of [7, 30]) {
      const windowed = await pagesFrom(db, backend, scope, size, null, { levelListMost: 0 });
      expect(windowed.flatMap((p) => p.hits)).toEqual(want);
      const used = hitsUsed();
      // Twice: the second pass finds the hits kept by the first.
      for (let run = 0; run < 2; run++)
        expect({ size, run, pages: await pagesFrom(db, backend, scope, size, null, LISTED) }).toEqual({ size, run, pages: windowed });
      if (backend.dialect === 'postgres') expect(hitsUsed() - used).toBeGreaterThan(3);
    }
    // Nothing was written: the level's hits were read once, for every page of both sizes.
    if (backend.dialect === 'postgres') expect(hitsReads() - reads).toBe(1);
  }, 120_000);

  it('holds writes between pages that move hits into, out of, up and down the level', async () => {
    const scope: SearchScope = { connectorId: 'hits', entity: 'written' };
    const held = records(600);
    await backend.upsert(scope, held, 'id');
    const first = await page(db, backend, scope, 50, null, LISTED);
    // The page inside the level is read three times at one snapshot: noted, its hits read, then read from them.
    const inside = await page(db, backend, scope, 5, first.cursor, LISTED);
    expect(await page(db, backend, scope, 5, first.cursor, LISTED)).toEqual(inside);
    expect(await page(db, backend, scope, 5, first.cursor, LISTED)).toEqual(inside);
    expect(inside.hits.every(([, score]) => score === LEVEL)).toBe(true);
    const cursorId = inside.hits[inside.hits.length - 1]?.[0] as string;
    const after = (score: (s: number) => boolean) => evaluatorHits(FILTER, FIELDS, held).filter(([id, s]) => score(s) && byCodePoint(id, cursorId) > 0);
    const [up, down, out] = after((s) => s === LEVEL).map(([id]) => id);
    const [into] = held.filter((record) => byCodePoint(record.id as string, cursorId) > 0 && !after((s) => s >= LEVEL).some(([id]) => id === record.id));
    const changes = [
      { id: `${cursorId}~new`, name: 'quarterly budget report' },
      { id: up, name: 'quarterly report' },
      { id: down, name: 'quarterly audit' },
      { id: out, name: 'budget audit sprint' },
      { id: into?.id, name: 'report quarterly budget' },
    ];
    expect(changes.every((change) => typeof change.id === 'string')).toBe(true);
    // Written through another pool, as a sync would.
    await backend.upsert(scope, changes, 'id');
    const now = held.map((record) => changes.find((change) => change.id === record.id) ?? record).concat(changes[0] as Record<string, unknown>);
    // From the start, the level read with the one before it: from its hits only where they were read in this snapshot.
    expect((await page(db, backend, scope, 200, null, LISTED)).hits).toEqual(evaluatorHits(FILTER, FIELDS, now));
    const wantRest = evaluatorHits(FILTER, FIELDS, now).filter(([id, score]) => score < LEVEL || (score === LEVEL && byCodePoint(id, cursorId) > 0));
    const rest = (await pagesFrom(db, backend, scope, 5, inside.cursor, LISTED)).flatMap((p) => p.hits);
    expect(rest).toEqual(wantRest);
    expect(rest).toContainEqual([`${cursorId}~new`, LEVEL]);
    expect(rest.map(([id]) => id)).not.toContain(out);
  }, 60_000);

  it('holds a write committed after the hits were read by a transaction in progress then', async () => {
    if (backend.dialect !== 'postgres') return;
    const scope: SearchScope = { connectorId: 'hits', entity: 'in progress' };
    const held = records(600);
    await backend.upsert(scope, held, 'id');
    const first = await page(db, backend, scope, 50, null, LISTED);
    const cursorId = first.hits[first.hits.length - 1]?.[0] as string;
    const writer = await (backend.db as pg.Pool).connect();
    try {
      await writer.query('BEGIN');
      const added = { id: `${cursorId}~late`, name: 'quarterly budget report' };
      await writer.query(`INSERT INTO search_records (connector_id, entity, id, data) VALUES ($1, $2, $3, $4)`, [
        scope.connectorId,
        scope.entity,
        added.id,
        JSON.stringify(added),
      ]);
      // Read from the level's hits, read once here (the writer's transaction is not committed in either snapshot).
      const reads = hitsReads();
      const inside = await page(db, backend, scope, 5, first.cursor, LISTED);
      expect(await page(db, backend, scope, 5, first.cursor, LISTED)).toEqual(inside);
      expect(hitsReads() - reads).toBe(1);
      expect(inside.hits.map(([id]) => id)).not.toContain(added.id);
      await writer.query('COMMIT');
      const again = await page(db, backend, scope, 5, first.cursor, LISTED);
      expect(again.hits[0]).toEqual([added.id, LEVEL]);
      expect(again.hits.slice(1)).toEqual(inside.hits.slice(0, 4));
    } finally {
      writer.release();
    }
  }, 60_000);
});
