import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchDatabase, type SearchScope } from '../../engine/search/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { evaluatorHits } from '../support/search-evaluator.js';
import { openPostgresSearchBackend, type SearchBackend } from '../support/search-records.js';

/**
 * On PostgreSQL a search whose statement reads in id order through a text index (like, keyword),
 * or value by value through kept keys (a `like` prefix over a few values), keeps that statement named on its connection, so the server parses it once per connection and
 * may plan it once for every value. Whatever the session went through since (a column type
 * changed, its statements deallocated, a rolled-back transaction, a new connection), every answer
 * must stay the reference answer (scoreRecord; score desc, then id), and a
 * connection keeps a bounded number of them.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', notes: 'string' };
const SCOPE: SearchScope = { connectorId: 'kept', entity: 'rows' };
const WORDS = ['roadmap', 'sprint', 'security', 'audit', 'release', 'review', 'budget', 'invoice', 'hiring'];

/** 300 records, the same every run: three words of WORDS each (picked by a fixed rule), and a numbered note. */
const RECORDS = Array.from({ length: 300 }, (_, i) => ({
  id: `r${String(i).padStart(3, '0')}`,
  name: [0, 1, 2].map((j) => WORDS[(i * (j + 3) + j * j + Math.floor(i / 7)) % WORDS.length]).join(' '),
  notes: `note ${i} ${WORDS[(i * 5) % WORDS.length]} ${WORDS[(i * 2 + 1) % WORDS.length]}`,
}));

/** Like filters on one field: one SQL text, each value its own answer. */
const LIKES = ['%roadmap sprint%', '%security%', 'sec%', '%zzz%', '%a%', '%audit re%', 'budget invoice%', '%hiring'].map((pattern) => ({
  like: { name: pattern },
}));
/** Two-word keyword filters: one SQL text too. */
const KEYWORDS = ['invoice hiring', 'roadmap audit', 'zzz release', 'budget review', 'sprint sprint'].map((words) => ({ keyword: { notes: words } }));

function reference(filter: unknown): string[] {
  return evaluatorHits(filter, FIELDS, RECORDS).map(([id, score]) => `${id}:${score.toFixed(6)}`);
}

/** Every hit of a filter, `size` per page, cursor to cursor. */
async function hits(db: SearchDatabase, filter: unknown, size = 40): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await runSearch(db, 'postgres', SCOPE, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS));
    found.push(...page.hits.map((hit) => `${hit.id}:${hit.score.toFixed(6)}`));
    cursor = page.next_cursor;
  } while (cursor && found.length <= RECORDS.length);
  return found;
}

describe('searches on postgres keep their statements named per connection', () => {
  let cluster: PostgresCluster;
  let backend: SearchBackend;
  /** One connection (max 1), so the kept statements of every search are on the session the tests look at. */
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startPostgres();
    backend = await openPostgresSearchBackend(cluster);
    await backend.upsert(SCOPE, RECORDS, 'id');
    pool = new pg.Pool({ connectionString: (backend.db as pg.Pool).options.connectionString, max: 1 });
    // A connection the server ends is dropped by the pool; the next search opens another.
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await backend?.close();
    await cluster?.stop();
  });

  /** The search statements kept on the pool's one connection, and how many times each was run. */
  async function kept(): Promise<number[]> {
    const { rows } = await pool.query<{ runs: string }>(
      "SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE name LIKE 'ce\\_search\\_%' ORDER BY prepare_time",
    );
    return rows.map((row) => Number(row.runs));
  }

  it('answers many values of one statement as the reference, every search on a statement kept for many', async () => {
    const filters = [...LIKES, ...KEYWORDS];
    for (let round = 0; round < 3; round++) {
      // One page each: the whole answer in one search.
      for (const filter of filters) expect(await hits(pool, filter, RECORDS.length), JSON.stringify(filter)).toEqual(reference(filter));
    }
    expect(reference(LIKES[3]).length).toBe(0);
    expect(Math.max(...filters.map((filter) => reference(filter).length))).toBeGreaterThan(100);
    const statements = await kept();
    // A prefix like reads the path's value keys as a range (like-prefix.ts), here value by value (a few names each): kept too.
    const prefixes = LIKES.filter(({ like }) => !like.name.startsWith('%'));
    expect(prefixes).toHaveLength(2);
    expect(statements.reduce((a, b) => a + b, 0)).toBe(3 * filters.length);
    // A like with no trigram to ask (`%a%`) and one that asks them differ in text; values alone do not. A prefix's read has
    // two texts: the first search's, after its range's probe, and the later ones', which check that probe's answer (range-keys.ts).
    expect(statements.length).toBeLessThanOrEqual(4 + 2 * prefixes.length);
    expect(Math.max(...statements)).toBeGreaterThanOrEqual(12);
  });

  it('pages with cursors as the reference', async () => {
    for (const filter of [...LIKES, ...KEYWORDS]) expect(await hits(pool, filter, 7), JSON.stringify(filter)).toEqual(reference(filter));
  });

  it('keeps at most 32 per connection, the least recently used going first', async () => {
    // 40 texts: an `and` of 1 to 40 likes on one field (each like every hit must match, so it reads in id order).
    for (let count = 1; count <= 40; count++) {
      const filter = { and: Array.from({ length: count }, (_, i) => ({ like: { name: i % 2 === 0 ? '%r%' : '%e%' } })) };
      expect(await hits(pool, filter, RECORDS.length), `${count} likes`).toEqual(reference(filter));
    }
    expect(await kept()).toHaveLength(32);
    expect(await hits(pool, LIKES[0])).toEqual(reference(LIKES[0]));
  });

  it('answers after its statements were deallocated on the session behind its back', async () => {
    await hits(pool, LIKES[1]);
    const client = await pool.connect();
    try {
      await client.query('DEALLOCATE ALL');
    } finally {
      client.release();
    }
    expect(await kept()).toEqual([]);
    for (const filter of [LIKES[1], KEYWORDS[0]]) expect(await hits(pool, filter, RECORDS.length)).toEqual(reference(filter));
    expect(await kept()).toEqual([1, 1]);
  });

  it('answers in a transaction of the caller, and after it rolled back, on that connection', async () => {
    const filter = { keyword: { notes: 'invoice hiring budget' } };
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await hits(client, filter)).toEqual(reference(filter));
      await client.query('ROLLBACK');
      expect(await hits(client, filter)).toEqual(reference(filter));
    } finally {
      client.release();
    }
  });

  it('prepares them again on a new connection', async () => {
    await hits(pool, LIKES[0]);
    const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    await (backend.db as pg.Pool).query('SELECT pg_terminate_backend($1)', [pid]);
    // The pool drops the ended connection when the server's notice of it arrives.
    for (let waited = 0; pool.totalCount > 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const filter of [LIKES[0], LIKES[1]]) expect(await hits(pool, filter, RECORDS.length)).toEqual(reference(filter));
    expect((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid).not.toBe(pid);
    expect(await kept()).toEqual([2]);
  });

  it('answers after a column its statement returns changed type', async () => {
    // A database of its own: the prefix likes above gave the shared one value-key triggers on id, whose type cannot change under them.
    const own = await openPostgresSearchBackend(cluster);
    const ownPool = new pg.Pool({ connectionString: (own.db as pg.Pool).options.connectionString, max: 1 });
    try {
      await own.upsert(SCOPE, RECORDS, 'id');
      const filter = LIKES[0];
      expect(await hits(ownPool, filter)).toEqual(reference(filter));
      // The server replans a kept statement after a schema change by itself, but refuses one whose result columns changed type.
      await (own.db as pg.Pool).query('ALTER TABLE search_records ALTER COLUMN id TYPE varchar');
      expect(await hits(ownPool, filter)).toEqual(reference(filter));
      expect(await hits(ownPool, KEYWORDS[0])).toEqual(reference(KEYWORDS[0]));
    } finally {
      await ownPool.end();
      await own.close();
    }
  });
});
