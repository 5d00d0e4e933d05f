/**
 * Starting kept keys on PostgreSQL (a sort's keys, a pair of sort keys, a range's value keys)
 * checks a client out of the search's pool for a transaction of its own, with an error listener
 * so a session ended under the fill cannot end the process (engine/search/pg-checkout.ts). The
 * pool reuses that client: the listener must go with it, or every start leaves one more behind,
 * and a service that sorts past the kept pairs' limit starts again every 10 seconds. Here one
 * pooled connection serves 14 starts, and afterwards holds the listeners it held before them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { migratePostgres } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const PATHS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const FIELDS: Record<string, FieldType> = Object.fromEntries(PATHS.map((path) => [path, 'integer']));
const SCOPE: SearchScope = { connectorId: 'checkout', entity: 'rows' };
const RECORDS = Array.from({ length: 30 }, (_, i) => ({
  id: `r${String(i).padStart(2, '0')}`,
  ...Object.fromEntries(PATHS.map((path, j) => [path, (i * (j + 3)) % 11])),
}));

describe('kept keys started on PostgreSQL through one pooled connection', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase(), max: 1 });
    await migratePostgres(pool);
    for (const record of RECORDS) {
      await pool.query(`INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES ($1, $2, $3, $4, '2024-01-01T00:00:00.000Z')`, [
        SCOPE.connectorId,
        SCOPE.entity,
        record.id,
        JSON.stringify(record),
      ]);
    }
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  it('leaves the connection with the error listeners it had: none added per start', async () => {
    const client = await pool.connect();
    const before = client.listenerCount('error');
    client.release();
    const search = (query: Record<string, unknown>) => runSearch(pool, 'postgres', SCOPE, parseSearchParams({ query, limit: 5 }, FIELDS, {}, PATHS));
    for (const [j, path] of PATHS.entries()) {
      // A sort by one path starts its keys; a sort by two, their pair.
      const value = (record: Record<string, unknown>, at: string) => record[at] as number;
      const one = await search({ sort: [{ [path]: 'desc' }] });
      const highest = RECORDS.map((record) => value(record, path)).sort((x, y) => y - x);
      expect(one.hits.map((hit) => value(hit.data, path))).toEqual(highest.slice(0, 5));
      const next = PATHS[(j + 1) % PATHS.length] as string;
      const two = await search({ sort: [{ [path]: 'asc' }, { [next]: 'asc' }] });
      const lowest = RECORDS.map((record) => [value(record, path), value(record, next)]).sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
      expect(two.hits.map((hit) => [value(hit.data, path), value(hit.data, next)])).toEqual(lowest.slice(0, 5));
    }
    const registered = await pool.query<{ n: string }>('SELECT count(*) AS n FROM search_sort_paths');
    expect(Number(registered.rows[0]?.n)).toBe(PATHS.length);
    const after = await pool.connect();
    try {
      expect(after.listenerCount('error')).toBe(before);
    } finally {
      after.release();
    }
  }, 60_000);
});
