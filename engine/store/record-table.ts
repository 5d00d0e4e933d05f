import type { StoreDialect } from './types.js';

/** The table that holds the synchronized copy: one row per record, `data` is the record as JSON. */
export const RECORD_TABLE = 'search_records';
/** SQLite only: the FTS5 trigram index over every string of a record (rowid = `search_records.seq`). */
export const RECORD_TEXT_TABLE = 'search_records_text';

const SQLITE_TEXT_OF = (row: string) =>
  `SELECT ${row}.seq, coalesce(group_concat(' ' || atom || ' ', char(10)), '') FROM json_tree(${row}.data) WHERE type = 'text'`;

const SQLITE_DDL = `
CREATE TABLE IF NOT EXISTS ${RECORD_TABLE} (
  seq INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  updated_at TEXT NOT NULL,
  UNIQUE (connector_id, entity, id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS ${RECORD_TEXT_TABLE} USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1);
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_text_insert AFTER INSERT ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${RECORD_TEXT_TABLE} WHERE rowid = new.seq;
  INSERT INTO ${RECORD_TEXT_TABLE} (rowid, body) ${SQLITE_TEXT_OF('new')};
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_text_update AFTER UPDATE OF data ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${RECORD_TEXT_TABLE} WHERE rowid = old.seq;
  INSERT INTO ${RECORD_TEXT_TABLE} (rowid, body) ${SQLITE_TEXT_OF('new')};
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_text_delete AFTER DELETE ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${RECORD_TEXT_TABLE} WHERE rowid = old.seq;
END;
`;

const POSTGRES_DDL = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE OR REPLACE FUNCTION search_record_text(doc jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $fn$
    SELECT coalesce(string_agg(' ' || (v #>> '{}') || ' ', E'\\n'), '')
    FROM jsonb_path_query(doc, 'strict $.**') AS t(v)
    WHERE jsonb_typeof(v) = 'string'
  $fn$;
CREATE TABLE IF NOT EXISTS ${RECORD_TABLE} (
  connector_id text NOT NULL,
  entity text NOT NULL,
  id text COLLATE "C" NOT NULL,
  data jsonb NOT NULL,
  search_text text GENERATED ALWAYS AS (search_record_text(data)) STORED,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (connector_id, entity, id)
);
CREATE INDEX IF NOT EXISTS ${RECORD_TABLE}_data ON ${RECORD_TABLE} USING gin (data jsonb_path_ops);
CREATE INDEX IF NOT EXISTS ${RECORD_TABLE}_text ON ${RECORD_TABLE} USING gin (search_text gin_trgm_ops);
`;

/**
 * DDL of the record table and its indexes, idempotent (`IF NOT EXISTS`), for the store to adopt
 * as a migration. Writers upsert `(connector_id, entity, id, data, updated_at)` with
 * `ON CONFLICT (connector_id, entity, id) DO UPDATE`; the text index follows by itself (SQLite
 * triggers, a PostgreSQL generated column).
 *
 * SQLite: the natural key is UNIQUE and `seq` (an alias of rowid, so VACUUM keeps it) links a row
 * to its FTS5 trigram entry; that entry holds every string of the record, each padded with spaces.
 * PostgreSQL: `id` uses the "C" collation so the primary key orders ids exactly as SQLite does;
 * GIN `jsonb_path_ops` serves `eq`/`in` by containment, pg_trgm serves `like`/`fuzzy`/`keyword`.
 */
export function recordTableDdl(dialect: StoreDialect): string {
  return dialect === 'sqlite' ? SQLITE_DDL : POSTGRES_DDL;
}
