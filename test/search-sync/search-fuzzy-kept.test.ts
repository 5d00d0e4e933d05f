/**
 * PostgreSQL keeps a fuzzy levels read's compiled statements per query, the cursor's id put in
 * place (pg-level-compiles.ts), and takes the absent grams its last probe of a query found as a
 * guess that the first level's statement checks in its own snapshot (run-levels.ts, gram-presence.ts
 * PresenceProbe.guard). Pages must stay exactly what the evaluator answers on both backends: page
 * after page of one level (a kept statement with another cursor each time), and with writes between
 * pages that bring the query's absent grams into a record and take them out again (a guess that
 * fails, then holds again).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { evaluatorHits, hitsOf, type Hit } from '../support/search-evaluator.js';
import { openPostgresSearchBackend, type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string' };
const SCOPE: SearchScope = { connectorId: 'kept', entity: 'tasks' };

const WORDS = ['quarterly', 'report', 'review', 'budget', 'quartz', 'port', 'roadmap'];

/** 150 names of two or three words: several levels of the queries below, most of them a few pages of 4 long, with ties. */
const RECORDS: Array<Record<string, unknown>> = Array.from({ length: 150 }, (_, i) => ({
  id: `k${String(i).padStart(3, '0')}`,
  name: `${WORDS[i % 7]} ${WORDS[(i * 3 + 1) % 7]}${i % 5 === 0 ? ` ${WORDS[(i * 2) % 7]}` : ''}`,
}));

/** 6 of its 15 trigrams (rtr, trl, epr, pro, rot, "ot ") are in no name above: the probe finds them absent. */
const MISSPELT = { fuzzy: { name: 'quartrly reprot' } };
const QUERIES: Record<string, unknown>[] = [MISSPELT, { fuzzy: { name: 'quarterly report' } }, { and: [MISSPELT, { keyword: { name: 'report review' } }] }];

/** The evaluator's hits of `filter` over `records`, best first, ties by id. */
const ranked = (filter: Record<string, unknown>, records: ReadonlyArray<Record<string, unknown>>) => evaluatorHits(filter, FIELDS, records);

/** The page of `size` the evaluator gives after the hit `after` (a keyset: hits ordered after it, whether or not it still matches). */
function pageAfter(filter: Record<string, unknown>, records: ReadonlyArray<Record<string, unknown>>, after: Hit | null, size: number): Hit[] {
  const all = ranked(filter, records);
  const rest = after ? all.filter(([id, score]) => score < after[1] || (score === after[1] && id > after[0])) : all;
  return rest.slice(0, size);
}

describe.each(SEARCH_BACKENDS)('fuzzy pages on $name with kept statements and guessed absent grams', ({ open }) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, RECORDS, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const search = async (filter: Record<string, unknown>, size: number, cursor: string | null) =>
    runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS));

  it('pages through every query as the evaluator does, twice over (the second time from kept statements and guesses)', async () => {
    for (const filter of QUERIES) {
      for (let round = 0; round < 2; round++) {
        let cursor: string | null = null;
        let last: Hit | null = null;
        let pages = 0;
        do {
          const page = await search(filter, 4, cursor);
          const hits = hitsOf(page);
          expect({ filter, round, pages, hits }).toEqual({ filter, round, pages, hits: pageAfter(filter, RECORDS, last, 4) });
          last = hits[hits.length - 1] ?? last;
          cursor = page.next_cursor;
          pages++;
        } while (cursor);
        expect(ranked(filter, RECORDS).length).toBeGreaterThan(8);
        expect(pages).toBe(Math.ceil(ranked(filter, RECORDS).length / 4));
      }
    }
  }, 120_000);

  it('stays exact when writes between pages bring the absent grams into a record and take them out again', async () => {
    // A record that holds every absent gram scores 1 and so comes before any cursor on a lower level: read with the old guess, it would be counted on the cursor's level, where its id is still to come.
    const writes: Array<Record<string, unknown>> = [
      { id: 'k149x', name: 'quartrly reprot' },
      { id: 'k001x', name: 'quartrly reprot' },
      { id: 'k001x', name: 'roadmap' },
      { id: 'k120x', name: 'quarterly reprot' },
    ];
    for (const [n, filter] of QUERIES.entries()) {
      // A scope per query: each starts from the same records, and its first search probes.
      const scope: SearchScope = { connectorId: 'kept', entity: `written-${n}` };
      const records = RECORDS.map((record) => ({ ...record }));
      await backend.upsert(scope, records, 'id');
      const page = (cursor: string | null) => runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: 4, cursor }, FIELDS));
      let cursor: string | null = null;
      let last: Hit | null = null;
      let pages = 0;
      do {
        const found = await page(cursor);
        const hits = hitsOf(found);
        expect({ filter, pages, hits }).toEqual({ filter, pages, hits: pageAfter(filter, records, last, 4) });
        last = hits[hits.length - 1] ?? last;
        cursor = found.next_cursor;
        // The next page twice over when nothing was written in between: the second reads with the guess the first one's probe left.
        if (cursor) expect(hitsOf(await page(cursor))).toEqual(pageAfter(filter, records, last, 4));
        const write = writes[pages];
        if (write) {
          const at = records.findIndex((held) => held.id === write.id);
          if (at >= 0) records[at] = write;
          else records.push(write);
          await backend.upsert(scope, [write], 'id');
        }
        pages++;
      } while (cursor && pages < 200);
      expect(cursor).toBeNull();
      expect(pages).toBeGreaterThan(writes.length);
    }
  }, 120_000);
});

describe('a PostgreSQL pool that searched a fuzzy query before', () => {
  let backend: SearchBackend;
  let pool: pg.Pool;
  beforeAll(async () => {
    backend = await openPostgresSearchBackend();
    await backend.upsert(SCOPE, RECORDS, 'id');
    // One connection: the statements it keeps are the ones this pool's searches sent.
    pool = new pg.Pool({ connectionString: (backend.db as pg.Pool).options.connectionString, max: 1 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await backend?.close();
  });

  it('reads its first level through a statement that checks the guessed absent grams, and answers as before', async () => {
    const statements = async () =>
      (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(({ statement }) => statement);
    const page = async () => hitsOf(await runSearch(pool, 'postgres', SCOPE, parseSearchParams({ query: { filter: MISSPELT }, limit: 4 }, FIELDS)));
    expect(await page()).toEqual(pageAfter(MISSPELT, RECORDS, null, 4));
    // The first search probed: nothing was guessed yet.
    expect((await statements()).filter((sql) => sql.includes(' AS ok'))).toEqual([]);
    expect(await page()).toEqual(pageAfter(MISSPELT, RECORDS, null, 4));
    const guarded = (await statements()).filter((sql) => sql.includes(' AS ok'));
    expect(guarded).toHaveLength(1);
    // The guard asks the index whether each absent gram is still absent: "NOT EXISTS" once per gram, less the complete test's own.
    expect((guarded[0]?.match(/NOT EXISTS/g) ?? []).length).toBe(1 + 6);
  }, 60_000);

  it("answers before its transaction's COMMIT is done, and has the connection back once it is", async () => {
    // A pool of its own whose COMMITs wait for a gate: the search must not wait for its COMMIT.
    const gated = new pg.Pool({ connectionString: (backend.db as pg.Pool).options.connectionString, max: 1 });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let commits = 0;
    gated.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        if (args[0] !== 'COMMIT') return query(...args);
        commits++;
        return gate.then(() => query(...args));
      };
    });
    try {
      const search = runSearch(gated, 'postgres', SCOPE, parseSearchParams({ query: { filter: MISSPELT }, limit: 4 }, FIELDS));
      // Settled while the COMMIT is held (a search that waited for it would never settle before the gate opens).
      const answered = await Promise.race([search.then((page) => hitsOf(page)), gate.then(() => 'waited for COMMIT' as const)]);
      expect(answered).toEqual(pageAfter(MISSPELT, RECORDS, null, 4));
      expect({ commits, idle: gated.idleCount }).toEqual({ commits: 1, idle: 0 });
      open();
      // The only connection comes back once its COMMIT is done: the next query gets it, outside any transaction.
      expect((await gated.query<{ transaction_isolation: string }>('SHOW transaction_isolation')).rows).toEqual([{ transaction_isolation: 'read committed' }]);
    } finally {
      open();
      await gated.end();
    }
  }, 60_000);
});
