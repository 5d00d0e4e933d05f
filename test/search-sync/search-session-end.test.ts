/**
 * A PostgreSQL session that ends under a call (terminated by an administrator, a server restart,
 * a failover) fails that call with the server's reason, and nothing else. A client checked out of
 * the pool emits an `error` event as its session ends, and with no listener on it that was an
 * uncaught exception: the whole process (a service, with every call in flight) ended, not the one
 * call. Each call is held on a table lock, its session terminated there, and the next call on the
 * same pool answers.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { openStore, type Store } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { openPostgresSearchBackend, type SearchBackend } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string' };
const SCOPE: SearchScope = { connectorId: 'session-end', entity: 'tasks' };
const NAMES = ['quarterly report', 'quarterly review', 'release notes', 'roadmap', 'budget review'];
const RECORDS = Array.from({ length: 200 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, name: `${NAMES[i % NAMES.length]} ${i}` }));

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

/**
 * Runs `call` while another session holds `table` locked, terminates the call's session once it
 * waits on that lock, and returns what the call settled with: its error's message, or `answered`.
 */
async function endSessionUnder(url: string, table: string, call: () => Promise<unknown>): Promise<string> {
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const settled = call().then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    let pid: number | undefined;
    for (let waited = 0; pid === undefined; waited += 5) {
      if (waited > 30_000) throw new Error(`the call never waited on ${table}`);
      const { rows } = await locker.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
      );
      pid = rows[0]?.pid;
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await locker.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0]?.ok).toBe(true);
    return await settled;
  } finally {
    await locker.query('ROLLBACK');
    await locker.end();
  }
}

describe('a search whose PostgreSQL session ends under it', () => {
  let backend: SearchBackend;
  let pool: pg.Pool;
  const poolErrors: string[] = [];
  beforeAll(async () => {
    backend = await openPostgresSearchBackend(cluster);
    pool = backend.db as pg.Pool;
    // An idle connection the server ends is the pool owner's to hear of (pg-pool emits it on the pool).
    pool.on('error', (error) => poolErrors.push(error.message));
    await backend.upsert(SCOPE, RECORDS, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  // A fuzzy filter reads its score levels in a transaction of its own (run-levels.ts); a like, one statement (postgres-no-jit.ts).
  it.each([
    ['a fuzzy read', { fuzzy: { name: 'quartrly reprot' } }],
    ['a one-statement read', { like: { name: '%review%' } }],
  ])('%s fails with the reason, the process goes on, and the next search answers', async (_name, filter) => {
    const search = async () => (await runSearch(pool, 'postgres', SCOPE, parseSearchParams({ query: { filter }, limit: 5 }, FIELDS))).hits.map((hit) => hit.id);
    const expected = await search();
    expect(expected).toHaveLength(5);
    expect(await endSessionUnder(pool.options.connectionString as string, 'search_records', search)).toMatch(/terminat/);
    expect(await search()).toEqual(expected);
    // The ended session was checked out by the search, not idle: the pool's owner heard nothing of it.
    expect(poolErrors).toEqual([]);
  });
});

describe('a store call whose PostgreSQL session ends under it', () => {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = await cluster.createDatabase();
    store = await openStore(url);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('a batch of records fails with the reason, writes nothing, and the next batch is written', async () => {
    const batch = RECORDS.slice(0, 50).map((record) => ({ id: record.id, data: record }));
    const write = () => store.writeRecords('copy', 'tasks', 1, batch);
    expect(await endSessionUnder(url, 'search_records', write)).toMatch(/terminat/);
    const count = async () => Number((await rows(url, `SELECT count(*) AS n FROM search_records WHERE connector_id = 'copy'`))[0]?.n);
    expect(await count()).toBe(0);
    await write();
    expect(await count()).toBe(50);
  });

  it('a transaction fails with the reason, and the next one commits', async () => {
    const revoke = () => store.revokeClient('no-such-client');
    expect(await endSessionUnder(url, 'platform_clients', revoke)).toMatch(/terminat/);
    expect(await revoke()).toBe(false);
  });
});

/** The rows of one statement, on a connection of its own. */
async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
