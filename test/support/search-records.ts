import Database from 'better-sqlite3';
import pg from 'pg';
import { registerSearchFunctions, type SearchDatabase, type SearchDialect, type SearchScope } from '../../engine/search/index.js';
import { recordSchemaDdl } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from './postgres.js';

/** A record table on one backend, for search tests and the search benchmark. */
export interface SearchBackend {
  readonly dialect: SearchDialect;
  readonly db: SearchDatabase;
  /** Upserts records by id (`id` is taken from `idField`), in one transaction per call. */
  upsert(scope: SearchScope, records: ReadonlyArray<Record<string, unknown>>, idField: string): Promise<void>;
  /** Counts the rows of the record table (to prove a table survived hostile input). */
  count(): Promise<number>;
  close(): Promise<void>;
}

/** A SQLite database (in memory unless a path is given) with the record table at the latest schema. */
export function openSqliteSearchBackend(path = ':memory:'): SearchBackend {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(recordSchemaDdl('sqlite'));
  // As the store does on every connection that searches: number-typed paths need it.
  registerSearchFunctions(db);
  const insert = db.prepare(
    `INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (connector_id, entity, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
  );
  const upsertAll = db.transaction((scope: SearchScope, records: ReadonlyArray<Record<string, unknown>>, idField: string) => {
    const now = new Date().toISOString();
    for (const record of records) insert.run(scope.connectorId, scope.entity, String(record[idField]), JSON.stringify(record), now);
  });
  return {
    dialect: 'sqlite',
    db,
    async upsert(scope, records, idField) {
      upsertAll(scope, records, idField);
    },
    async count() {
      return (db.prepare('SELECT count(*) AS n FROM search_records').get() as { n: number }).n;
    },
    async close() {
      db.close();
    },
  };
}

/** A fresh database on a throwaway PostgreSQL cluster, with the record table at the latest schema; `close` stops the cluster it started. */
export async function openPostgresSearchBackend(cluster?: PostgresCluster): Promise<SearchBackend> {
  const owned = cluster ?? (await startPostgres());
  const pool = new pg.Pool({ connectionString: await owned.createDatabase(), max: 4 });
  await pool.query(recordSchemaDdl('postgres'));
  return {
    dialect: 'postgres',
    db: pool,
    async upsert(scope, records, idField) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (let start = 0; start < records.length; start += 2000) {
          const batch = records.slice(start, start + 2000);
          await client.query(
            `INSERT INTO search_records (connector_id, entity, id, data, updated_at)
             SELECT $1, $2, r.id, r.data, now() FROM unnest($3::text[], $4::jsonb[]) AS r(id, data)
             ON CONFLICT (connector_id, entity, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
            [scope.connectorId, scope.entity, batch.map((record) => String(record[idField])), batch.map((record) => JSON.stringify(record))],
          );
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async count() {
      return Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM search_records')).rows[0]?.n);
    },
    async close() {
      await pool.end();
      if (!cluster) await owned.stop();
    },
  };
}

/** One backend a search suite runs on: its name (for describe.each) and how to open a fresh one. */
export interface SearchBackendCase {
  name: 'sqlite' | 'postgres';
  open(): Promise<SearchBackend>;
}

/** SQLite in memory and a throwaway PostgreSQL, the two backends every search suite runs on. */
export const SEARCH_BACKENDS: readonly SearchBackendCase[] = [
  { name: 'sqlite', open: async () => openSqliteSearchBackend() },
  { name: 'postgres', open: () => openPostgresSearchBackend() },
];

/**
 * Runs SQL written with PostgreSQL's `$n` placeholders on either backend (SQLite gets `?`): the
 * rows of a reading statement, none for a write. For tests that look at the side tables directly.
 */
export async function rawSql(backend: SearchBackend, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (backend.dialect === 'sqlite') {
    const statement = (backend.db as Database.Database).prepare(text.replace(/\$\d+/g, '?'));
    return statement.reader ? (statement.all(...values) as Record<string, unknown>[]) : (statement.run(...values), []);
  }
  return (await (backend.db as pg.Pool).query(text, values)).rows as Record<string, unknown>[];
}
