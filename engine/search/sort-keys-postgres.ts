import type pg from 'pg';
import { checkIn, checkOut, RECORD_TABLE } from '../store/index.js';
import { pgTyped } from './postgres-dialect.js';
import { SORT_KEYS_TABLE, SORT_PATHS_TABLE, type SortKeyTarget } from './sort-key-target.js';
import { SqlParams } from './sql-params.js';
import type { FieldRef } from './types.js';

/** A typed path's value as the dialect reads it (pgTyped), as an immutable SQL function of the jsonb value `v`. */
function typedFunction(name: string, valueType: 'number' | 'date-time'): string {
  const params = new SqlParams();
  const field = { valueType } as FieldRef;
  const body = params.inline(pgTyped(field, 'v', params));
  return `CREATE OR REPLACE FUNCTION ${name}(v jsonb) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT ${body} $fn$;`;
}

/**
 * The side table, registry and triggers (see sort-keys-sqlite.ts for the shape). The value is
 * reached segment by segment with `->` (text), as pgSingle does: `#>` would index into arrays.
 * The key columns are postgresDialect.sortKey's, and `id` and `str` use the "C" collation, so the
 * keys order exactly as the query-time expressions and SQLite do.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${SORT_PATHS_TABLE} (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  connector_id text NOT NULL,
  entity text NOT NULL,
  path text NOT NULL,
  value_type text NOT NULL,
  segments text[] NOT NULL,
  UNIQUE (connector_id, entity, path, value_type)
);
CREATE TABLE IF NOT EXISTS ${SORT_KEYS_TABLE} (
  path_id integer NOT NULL,
  id text COLLATE "C" NOT NULL,
  rank smallint NOT NULL,
  num float8 NOT NULL,
  str text COLLATE "C" NOT NULL,
  PRIMARY KEY (path_id, id)
);
CREATE INDEX IF NOT EXISTS ${SORT_KEYS_TABLE}_asc ON ${SORT_KEYS_TABLE} (path_id, rank, num, str, id);
CREATE INDEX IF NOT EXISTS ${SORT_KEYS_TABLE}_desc ON ${SORT_KEYS_TABLE} (path_id, rank, num DESC, str DESC, id);
${typedFunction('search_sort_number', 'number')}
${typedFunction('search_sort_instant', 'date-time')}
CREATE OR REPLACE FUNCTION search_sort_key(doc jsonb, segments text[], value_type text, OUT rank smallint, OUT num float8, OUT str text)
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
  DECLARE
    v jsonb := doc;
    segment text;
    n float8;
  BEGIN
    FOREACH segment IN ARRAY segments LOOP
      v := v -> segment;
    END LOOP;
    IF value_type <> '' THEN
      n := CASE value_type WHEN 'number' THEN search_sort_number(v) ELSE search_sort_instant(v) END;
      rank := CASE WHEN n IS NULL THEN 2 ELSE 0 END;
      num := coalesce(n, 0);
      str := '';
    ELSE
      rank := CASE jsonb_typeof(v) WHEN 'number' THEN 0 WHEN 'boolean' THEN 0 WHEN 'string' THEN 1 ELSE 2 END;
      num := CASE jsonb_typeof(v) WHEN 'number' THEN v::float8 WHEN 'boolean' THEN (CASE WHEN v = 'true'::jsonb THEN 1 ELSE 0 END) ELSE 0 END;
      str := CASE WHEN jsonb_typeof(v) = 'string' THEN v #>> '{}' ELSE '' END;
    END IF;
  END
  $fn$;
CREATE OR REPLACE FUNCTION search_sort_keys_write() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      DELETE FROM ${SORT_KEYS_TABLE} AS k USING ${SORT_PATHS_TABLE} AS p
        WHERE p.connector_id = OLD.connector_id AND p.entity = OLD.entity AND k.path_id = p.id AND k.id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO ${SORT_KEYS_TABLE} (path_id, id, rank, num, str)
        SELECT p.id, NEW.id, k.rank, k.num, k.str FROM ${SORT_PATHS_TABLE} AS p, search_sort_key(NEW.data, p.segments, p.value_type) AS k
        WHERE p.connector_id = NEW.connector_id AND p.entity = NEW.entity;
    END IF;
    RETURN NULL;
  END
  $fn$;
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_sort_insert AFTER INSERT ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_sort_keys_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_sort_update AFTER UPDATE OF data, connector_id, entity, id ON ${RECORD_TABLE} FOR EACH ROW
  WHEN (OLD.data IS DISTINCT FROM NEW.data OR OLD.connector_id IS DISTINCT FROM NEW.connector_id OR OLD.entity IS DISTINCT FROM NEW.entity OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION search_sort_keys_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_sort_delete AFTER DELETE ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_sort_keys_write();
`;

/** Any fixed 64-bit number, the same in every process: registrations of sort keys (and pairs) take turns. */
export const SORT_KEYS_LOCK = '7306912880345521062';

const FIND = `SELECT id FROM ${SORT_PATHS_TABLE} WHERE connector_id = $1 AND entity = $2 AND path = $3 AND value_type = $4`;

/** The registered id of a path's keys, or undefined when none are kept (the side table may not exist yet). */
export async function findPostgresSortKeys(db: pg.Pool | pg.PoolClient | pg.Client, target: SortKeyTarget): Promise<number | undefined> {
  return (await exists(db)) ? registered(db, target) : undefined;
}

async function exists(db: pg.Pool | pg.PoolClient | pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(`SELECT to_regclass('${SORT_PATHS_TABLE}') IS NOT NULL AS known`);
  return rows[0]?.known === true;
}

/**
 * Creates the side table, registry, key functions and triggers when missing, on a client that
 * holds SORT_KEYS_LOCK in its transaction (kept pairs compute their keys with search_sort_key too).
 */
export async function createSortKeyTables(client: pg.PoolClient): Promise<void> {
  if (!(await exists(client))) await client.query(DDL);
}

async function registered(db: pg.Pool | pg.PoolClient | pg.Client, target: SortKeyTarget): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(FIND, [target.connectorId, target.entity, target.path, target.valueType]);
  return rows[0]?.id;
}

/**
 * Starts keeping a path's sort keys (see ensureSqliteSortKeys). Registrations take turns on an
 * advisory lock; SHARE on the record table waits for writes in flight and holds new ones until
 * the fill commits, so every record gets its keys from the fill or from the trigger, never neither.
 */
export async function ensurePostgresSortKeys(pool: pg.Pool, target: SortKeyTarget): Promise<number> {
  const client = await checkOut(pool);
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SORT_KEYS_LOCK]);
      await createSortKeyTables(client);
      let id = await registered(client, target);
      let filled = false;
      if (id === undefined) {
        // A commit left to asynchronous flushing keeps VACUUM from marking the filled pages all-visible (PostgreSQL's lazy_scan_prune).
        await client.query('SET LOCAL synchronous_commit = on');
        await client.query(`LOCK TABLE ${RECORD_TABLE} IN SHARE MODE`);
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO ${SORT_PATHS_TABLE} (connector_id, entity, path, value_type, segments) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [target.connectorId, target.entity, target.path, target.valueType, target.path.split('.')],
        );
        id = rows[0]?.id as number;
        await client.query(
          `INSERT INTO ${SORT_KEYS_TABLE} (path_id, id, rank, num, str)
           SELECT p.id, r.id, k.rank, k.num, k.str FROM ${SORT_PATHS_TABLE} AS p
           JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity
           CROSS JOIN LATERAL search_sort_key(r.data, p.segments, p.value_type) AS k WHERE p.id = $1`,
          [id],
        );
        filled = true;
      }
      await client.query('COMMIT');
      // Marks the filled pages all-visible, so the first sorted pages read the index alone (no heap fetch per key); it cannot run in a transaction.
      if (filled) await client.query(`VACUUM (ANALYZE) ${SORT_KEYS_TABLE}`);
      return id;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    checkIn(client);
  }
}
