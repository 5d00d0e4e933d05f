import type pg from 'pg';
import { checkIn, checkOut, RECORD_TABLE } from '../store/index.js';
import { SORT_KEYS_LOCK } from './sort-keys-postgres.js';
import { VALUE_KEYS_TABLE, VALUE_PATHS_MOST, VALUE_PATHS_TABLE, type ValueKeyTarget } from './value-key-target.js';

/**
 * The folded index: one ASCII-folded string's records in id order (lower() of a "C" collation
 * column folds ASCII letters only, as the `like` test does), and a `like` prefix's as a range
 * (like-prefix.ts). `str` is included so that its walks and probes read the index alone: the
 * planner answers from an index only when it holds the columns an expression is computed from.
 */
const FOLDED_INDEX = `CREATE INDEX IF NOT EXISTS ${VALUE_KEYS_TABLE}_folded ON ${VALUE_KEYS_TABLE} (path_id, rank, num, lower(str), id) INCLUDE (str)`;

/**
 * The value keys side table, registry, key function and triggers (see value-keys-sqlite.ts for the
 * shape). search_value_keys_of gives the distinct scalars a document holds at a path, reached with
 * `->` (text) segment by segment as pgSingle does, through every element of the top-level array
 * for an array path; their key columns are postgresDialect.sortKey's for an untyped path.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${VALUE_PATHS_TABLE} (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  connector_id text NOT NULL,
  entity text NOT NULL,
  path text NOT NULL,
  top text NOT NULL,
  sub text[] NOT NULL,
  elements boolean NOT NULL,
  UNIQUE (connector_id, entity, path)
);
CREATE TABLE IF NOT EXISTS ${VALUE_KEYS_TABLE} (
  path_id integer NOT NULL,
  id text COLLATE "C" NOT NULL,
  rank smallint NOT NULL,
  num float8 NOT NULL,
  str text COLLATE "C" NOT NULL,
  PRIMARY KEY (path_id, id, rank, num, str)
);
CREATE INDEX IF NOT EXISTS ${VALUE_KEYS_TABLE}_walk ON ${VALUE_KEYS_TABLE} (path_id, rank, num, str, id);
${FOLDED_INDEX};
CREATE OR REPLACE FUNCTION search_value_keys_of(doc jsonb, top text, sub text[], elements boolean, OUT rank smallint, OUT num float8, OUT str text)
  RETURNS SETOF record LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
  DECLARE
    roots jsonb[];
    v jsonb;
    segment text;
  BEGIN
    IF elements THEN
      IF jsonb_typeof(doc -> top) IS DISTINCT FROM 'array' THEN RETURN; END IF;
      roots := ARRAY(SELECT jsonb_array_elements(doc -> top));
    ELSE
      roots := ARRAY[doc -> top];
    END IF;
    FOREACH v IN ARRAY roots LOOP
      FOREACH segment IN ARRAY sub LOOP
        v := v -> segment;
      END LOOP;
      CASE jsonb_typeof(v)
        WHEN 'number' THEN
          -- A number no float8 holds (its cast would fail the write) equals no filter value, which is a float8's decimal: it needs no key.
          IF abs(v::numeric) <= 1.7976931348623157e308 AND (v::numeric = 0 OR abs(v::numeric) >= 4.9e-324) THEN
            rank := 0; num := v::float8; str := ''; RETURN NEXT;
          END IF;
        WHEN 'boolean' THEN rank := 0; num := CASE WHEN v = 'true'::jsonb THEN 1 ELSE 0 END; str := ''; RETURN NEXT;
        WHEN 'string' THEN rank := 1; num := 0; str := v #>> '{}'; RETURN NEXT;
        ELSE NULL;
      END CASE;
    END LOOP;
  END
  $fn$;
CREATE OR REPLACE FUNCTION search_value_keys_write() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      DELETE FROM ${VALUE_KEYS_TABLE} AS k USING ${VALUE_PATHS_TABLE} AS p
        WHERE p.connector_id = OLD.connector_id AND p.entity = OLD.entity AND k.path_id = p.id AND k.id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO ${VALUE_KEYS_TABLE} (path_id, id, rank, num, str)
        SELECT DISTINCT p.id, NEW.id, k.rank, k.num, k.str FROM ${VALUE_PATHS_TABLE} AS p, search_value_keys_of(NEW.data, p.top, p.sub, p.elements) AS k
        WHERE p.connector_id = NEW.connector_id AND p.entity = NEW.entity;
    END IF;
    RETURN NULL;
  END
  $fn$;
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_value_insert AFTER INSERT ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_value_keys_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_value_update AFTER UPDATE OF data, connector_id, entity, id ON ${RECORD_TABLE} FOR EACH ROW
  WHEN (OLD.data IS DISTINCT FROM NEW.data OR OLD.connector_id IS DISTINCT FROM NEW.connector_id OR OLD.entity IS DISTINCT FROM NEW.entity OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION search_value_keys_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_value_delete AFTER DELETE ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_value_keys_write();
`;

const FIND = `SELECT id FROM ${VALUE_PATHS_TABLE} WHERE connector_id = $1 AND entity = $2 AND path = $3`;

async function exists(db: pg.Pool | pg.PoolClient | pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(`SELECT to_regclass('${VALUE_PATHS_TABLE}') IS NOT NULL AS known`);
  return rows[0]?.known === true;
}

async function foldedExists(db: pg.PoolClient): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(`SELECT to_regclass('${VALUE_KEYS_TABLE}_folded') IS NOT NULL AS known`);
  return rows[0]?.known === true;
}

async function registered(db: pg.Pool | pg.PoolClient | pg.Client, target: ValueKeyTarget): Promise<number | undefined> {
  return (await db.query<{ id: number }>(FIND, [target.connectorId, target.entity, target.path])).rows[0]?.id;
}

/** The registered id of a path's value keys, or undefined when none are kept (the side table may not exist yet). */
export async function findPostgresValueKeys(db: pg.Pool | pg.PoolClient | pg.Client, target: ValueKeyTarget): Promise<number | undefined> {
  return (await exists(db)) ? registered(db, target) : undefined;
}

/** Registers a path and fills its value keys from the records present, in the caller's transaction; undefined at VALUE_PATHS_MOST. */
async function registerAndFill(client: pg.PoolClient, target: ValueKeyTarget): Promise<number | undefined> {
  const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${VALUE_PATHS_TABLE} WHERE connector_id = $1 AND entity = $2`, [
    target.connectorId,
    target.entity,
  ]);
  if (Number(counted[0]?.n) >= VALUE_PATHS_MOST) return undefined;
  // A commit left to asynchronous flushing keeps VACUUM from marking the filled pages all-visible (PostgreSQL's lazy_scan_prune).
  await client.query('SET LOCAL synchronous_commit = on');
  await client.query(`LOCK TABLE ${RECORD_TABLE} IN SHARE MODE`);
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO ${VALUE_PATHS_TABLE} (connector_id, entity, path, top, sub, elements) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [target.connectorId, target.entity, target.path, target.top, target.sub, target.elements],
  );
  const id = rows[0]?.id as number;
  await client.query(
    `INSERT INTO ${VALUE_KEYS_TABLE} (path_id, id, rank, num, str)
     SELECT DISTINCT p.id, r.id, k.rank, k.num, k.str FROM ${VALUE_PATHS_TABLE} AS p
     JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity
     CROSS JOIN LATERAL search_value_keys_of(r.data, p.top, p.sub, p.elements) AS k WHERE p.id = $1`,
    [id],
  );
  return id;
}

/**
 * Starts keeping a path's value keys (see ensureSqliteValueKeys), under the lock sort key
 * registrations take turns on, with SHARE on the record table while the fill runs (as
 * ensurePostgresSortKeys); a crash before the commit leaves nothing behind. Undefined when the
 * entity keeps VALUE_PATHS_MOST paths.
 */
export async function ensurePostgresValueKeys(pool: pg.Pool, target: ValueKeyTarget): Promise<number | undefined> {
  const client = await checkOut(pool);
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SORT_KEYS_LOCK]);
      if (!(await exists(client))) await client.query(DDL);
      // A side table made before the folded index gets it here, once (built from the keys present, under the lock above).
      else if (!(await foldedExists(client))) await client.query(FOLDED_INDEX);
      let id = await registered(client, target);
      const filled = id === undefined;
      if (filled) id = await registerAndFill(client, target);
      await client.query('COMMIT');
      // Marks the filled pages all-visible, so walks read the index alone (no heap fetch per key); it cannot run in a transaction.
      if (filled && id !== undefined) await client.query(`VACUUM (ANALYZE) ${VALUE_KEYS_TABLE}`);
      return id;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    checkIn(client);
  }
}
