import type pg from 'pg';
import { checkIn, checkOut, RECORD_TABLE } from '../store/index.js';
import { pairIndexColumns, PAIRS_MOST } from './sort-pair-index.js';
import { SORT_PAIR_PATHS_TABLE, SORT_PAIRS_TABLE, type SortPairTarget } from './sort-key-target.js';
import { createSortKeyTables, SORT_KEYS_LOCK } from './sort-keys-postgres.js';

/**
 * The pair side table, registry and triggers (see sort-pairs-sqlite.ts for the shape). Both keys
 * are computed by search_sort_key (sort-keys-postgres.ts), so they are exactly one path's keys;
 * `id` and the strings use the "C" collation as there.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${SORT_PAIR_PATHS_TABLE} (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  connector_id text NOT NULL,
  entity text NOT NULL,
  path text NOT NULL,
  value_type text NOT NULL,
  segments text[] NOT NULL,
  descending boolean NOT NULL,
  then_path text NOT NULL,
  then_value_type text NOT NULL,
  then_segments text[] NOT NULL,
  then_descending boolean NOT NULL,
  UNIQUE (connector_id, entity, path, value_type, descending, then_path, then_value_type, then_descending)
);
CREATE TABLE IF NOT EXISTS ${SORT_PAIRS_TABLE} (
  pair_id integer NOT NULL,
  id text COLLATE "C" NOT NULL,
  rank smallint NOT NULL,
  num float8 NOT NULL,
  str text COLLATE "C" NOT NULL,
  then_rank smallint NOT NULL,
  then_num float8 NOT NULL,
  then_str text COLLATE "C" NOT NULL,
  PRIMARY KEY (pair_id, id)
);
CREATE OR REPLACE FUNCTION search_sort_pairs_write() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      DELETE FROM ${SORT_PAIRS_TABLE} AS k USING ${SORT_PAIR_PATHS_TABLE} AS p
        WHERE p.connector_id = OLD.connector_id AND p.entity = OLD.entity AND k.pair_id = p.id AND k.id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO ${SORT_PAIRS_TABLE} (pair_id, id, rank, num, str, then_rank, then_num, then_str)
        SELECT p.id, NEW.id, a.rank, a.num, a.str, b.rank, b.num, b.str FROM ${SORT_PAIR_PATHS_TABLE} AS p,
          search_sort_key(NEW.data, p.segments, p.value_type) AS a, search_sort_key(NEW.data, p.then_segments, p.then_value_type) AS b
        WHERE p.connector_id = NEW.connector_id AND p.entity = NEW.entity;
    END IF;
    RETURN NULL;
  END
  $fn$;
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_pair_insert AFTER INSERT ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_sort_pairs_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_pair_update AFTER UPDATE OF data, connector_id, entity, id ON ${RECORD_TABLE} FOR EACH ROW
  WHEN (OLD.data IS DISTINCT FROM NEW.data OR OLD.connector_id IS DISTINCT FROM NEW.connector_id OR OLD.entity IS DISTINCT FROM NEW.entity OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION search_sort_pairs_write();
CREATE OR REPLACE TRIGGER ${RECORD_TABLE}_pair_delete AFTER DELETE ON ${RECORD_TABLE} FOR EACH ROW EXECUTE FUNCTION search_sort_pairs_write();
`;

const FIND = `SELECT id FROM ${SORT_PAIR_PATHS_TABLE} WHERE connector_id = $1 AND entity = $2 AND path = $3 AND value_type = $4 AND descending = $5
  AND then_path = $6 AND then_value_type = $7 AND then_descending = $8`;

const findArgs = (t: SortPairTarget) => [
  t.connectorId,
  t.entity,
  t.first.path,
  t.first.valueType,
  t.first.descending,
  t.then.path,
  t.then.valueType,
  t.then.descending,
];

async function exists(db: pg.Pool | pg.PoolClient | pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(`SELECT to_regclass('${SORT_PAIR_PATHS_TABLE}') IS NOT NULL AS known`);
  return rows[0]?.known === true;
}

async function registered(db: pg.Pool | pg.PoolClient | pg.Client, target: SortPairTarget): Promise<number | undefined> {
  return (await db.query<{ id: number }>(FIND, findArgs(target))).rows[0]?.id;
}

/** The registered id of a pair's keys, or undefined when none are kept (the side table may not exist yet). */
export async function findPostgresSortPair(db: pg.Pool | pg.PoolClient | pg.Client, target: SortPairTarget): Promise<number | undefined> {
  return (await exists(db)) ? registered(db, target) : undefined;
}

/** Registers a pair, fills its keys from the records present and builds its index, in the caller's transaction; undefined at PAIRS_MOST. */
async function registerAndFill(client: pg.PoolClient, target: SortPairTarget): Promise<number | undefined> {
  const { rows: counted } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${SORT_PAIR_PATHS_TABLE} WHERE connector_id = $1 AND entity = $2`, [
    target.connectorId,
    target.entity,
  ]);
  if (Number(counted[0]?.n) >= PAIRS_MOST) return undefined;
  // A commit left to asynchronous flushing keeps VACUUM from marking the filled pages all-visible (PostgreSQL's lazy_scan_prune).
  await client.query('SET LOCAL synchronous_commit = on');
  await client.query(`LOCK TABLE ${RECORD_TABLE} IN SHARE MODE`);
  const { first, then } = target;
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO ${SORT_PAIR_PATHS_TABLE} (connector_id, entity, path, value_type, segments, descending, then_path, then_value_type, then_segments, then_descending)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      target.connectorId,
      target.entity,
      first.path,
      first.valueType,
      first.path.split('.'),
      first.descending,
      then.path,
      then.valueType,
      then.path.split('.'),
      then.descending,
    ],
  );
  const id = rows[0]?.id as number;
  await client.query(
    `INSERT INTO ${SORT_PAIRS_TABLE} (pair_id, id, rank, num, str, then_rank, then_num, then_str)
     SELECT p.id, r.id, a.rank, a.num, a.str, b.rank, b.num, b.str FROM ${SORT_PAIR_PATHS_TABLE} AS p
     JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity
     CROSS JOIN LATERAL search_sort_key(r.data, p.segments, p.value_type) AS a
     CROSS JOIN LATERAL search_sort_key(r.data, p.then_segments, p.then_value_type) AS b WHERE p.id = $1`,
    [id],
  );
  // Built after the fill (one sort, not one insert per key); the id is ours, an integer.
  await client.query(`CREATE INDEX ${SORT_PAIRS_TABLE}_${id} ON ${SORT_PAIRS_TABLE} (${pairIndexColumns(target)}) WHERE pair_id = ${id}`);
  return id;
}

/**
 * Starts keeping a pair's keys (see ensureSqliteSortPair), under the lock sort key registrations
 * take turns on, with SHARE on the record table while the fill runs (as ensurePostgresSortKeys);
 * a crash before the commit leaves nothing behind. Undefined when the entity keeps PAIRS_MOST.
 */
export async function ensurePostgresSortPair(pool: pg.Pool, target: SortPairTarget): Promise<number | undefined> {
  const client = await checkOut(pool);
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SORT_KEYS_LOCK]);
      await createSortKeyTables(client);
      if (!(await exists(client))) await client.query(DDL);
      let id = await registered(client, target);
      const filled = id === undefined;
      if (filled) id = await registerAndFill(client, target);
      await client.query('COMMIT');
      // Marks the filled pages all-visible, so pages read the index alone (no heap fetch per key); it cannot run in a transaction.
      if (filled && id !== undefined) await client.query(`VACUUM (ANALYZE) ${SORT_PAIRS_TABLE}`);
      return id;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    checkIn(client);
  }
}
