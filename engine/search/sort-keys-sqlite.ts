import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_TABLE, SQLITE_INSTANT_FUNCTION, SQLITE_NUMBER_FUNCTION } from '../store/index.js';
import { SORT_KEYS_TABLE, SORT_PATHS_TABLE, type SortKeyTarget } from './sort-key-target.js';

/**
 * The three key columns of a record's value at a registered path (row alias `row`; the path's
 * JSON path and value type are the registry row's columns `pathColumn` and `typeColumn`), exactly
 * as sqliteDialect.sortKey computes them at query time: typed paths by their number or instant
 * (engine/store/strict-number.ts), others by JSON type rank, then number, then text.
 */
export function keyColumns(row: string, pathColumn = 'p.json_path', typeColumn = 'p.value_type'): string {
  const t = `json_type(${row}.data, ${pathColumn})`;
  const x = `json_extract(${row}.data, ${pathColumn})`;
  const n = `(CASE ${typeColumn} WHEN 'number' THEN ${SQLITE_NUMBER_FUNCTION}(${t}, ${x}) WHEN 'date-time' THEN ${SQLITE_INSTANT_FUNCTION}(${t}, ${x}) END)`;
  const rank = `CASE WHEN ${typeColumn} <> '' THEN (CASE WHEN ${n} IS NULL THEN 2 ELSE 0 END) ELSE (CASE ${t} WHEN 'integer' THEN 0 WHEN 'real' THEN 0 WHEN 'true' THEN 0 WHEN 'false' THEN 0 WHEN 'text' THEN 1 ELSE 2 END) END`;
  const num = `CASE WHEN ${typeColumn} <> '' THEN coalesce(${n}, 0) ELSE (CASE ${t} WHEN 'integer' THEN ${x} WHEN 'real' THEN ${x} WHEN 'true' THEN 1 ELSE 0 END) END`;
  const str = `CASE WHEN ${typeColumn} = '' AND ${t} = 'text' THEN ${x} ELSE '' END`;
  return `${rank}, ${num}, ${str}`;
}

const INSERT_KEYS = (row: 'new' | 'r') =>
  `INSERT INTO ${SORT_KEYS_TABLE} (path_id, seq, rank, num, str, id) SELECT p.id, ${row}.seq, ${keyColumns(row)}, ${row}.id FROM ${SORT_PATHS_TABLE} AS p`;

/**
 * The sort-key side table (one row per record and registered path, WITHOUT ROWID so its indexes
 * carry seq), one index per direction (the type rank is always ascending and ties go by id
 * ascending, so a descending sort is not the ascending index read backwards), and the triggers
 * that keep it in step with the record table in the writer's own transaction. `num` has no type:
 * integers stay integers, so keys compare exactly as the query-time expressions do.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${SORT_PATHS_TABLE} (
  id INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  path TEXT NOT NULL,
  value_type TEXT NOT NULL,
  json_path TEXT NOT NULL,
  UNIQUE (connector_id, entity, path, value_type)
);
CREATE TABLE IF NOT EXISTS ${SORT_KEYS_TABLE} (
  path_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  num NOT NULL,
  str TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (seq, path_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ${SORT_KEYS_TABLE}_asc ON ${SORT_KEYS_TABLE} (path_id, rank, num, str, id);
CREATE INDEX IF NOT EXISTS ${SORT_KEYS_TABLE}_desc ON ${SORT_KEYS_TABLE} (path_id, rank, num DESC, str DESC, id);
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_sort_insert AFTER INSERT ON ${RECORD_TABLE} BEGIN
  ${INSERT_KEYS('new')} WHERE p.connector_id = new.connector_id AND p.entity = new.entity;
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_sort_update AFTER UPDATE OF data, connector_id, entity ON ${RECORD_TABLE}
  WHEN old.data IS NOT new.data OR old.connector_id IS NOT new.connector_id OR old.entity IS NOT new.entity BEGIN
  DELETE FROM ${SORT_KEYS_TABLE} WHERE seq = old.seq;
  ${INSERT_KEYS('new')} WHERE p.connector_id = new.connector_id AND p.entity = new.entity;
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_sort_delete AFTER DELETE ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${SORT_KEYS_TABLE} WHERE seq = old.seq;
END;
`;

/** `$."a"."b"`, the path sqliteSingle reads (segments are validated to a safe alphabet). */
export const jsonPath = (path: string) =>
  `$${path
    .split('.')
    .map((segment) => `."${segment}"`)
    .join('')}`;

/** The registered id of a path's keys, or undefined when none are kept (the side table may not exist yet). */
export function findSqliteSortKeys(db: BetterSqlite3.Database, target: SortKeyTarget): number | undefined {
  const known = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`).get(SORT_PATHS_TABLE);
  if (!known) return undefined;
  const row = db
    .prepare(`SELECT id FROM ${SORT_PATHS_TABLE} WHERE connector_id = ? AND entity = ? AND path = ? AND value_type = ?`)
    .get(target.connectorId, target.entity, target.path, target.valueType) as { id: number } | undefined;
  return row?.id;
}

/**
 * Starts keeping a path's sort keys: creates the side table and its triggers when missing,
 * registers the path and fills its keys from the records present, in one IMMEDIATE transaction,
 * so no write lands between the fill and the trigger taking over. Returns the path's id.
 */
export function ensureSqliteSortKeys(db: BetterSqlite3.Database, target: SortKeyTarget): number {
  const run = db.transaction(() => {
    db.exec(DDL);
    const found = findSqliteSortKeys(db, target);
    if (found !== undefined) return found;
    const { lastInsertRowid } = db
      .prepare(`INSERT INTO ${SORT_PATHS_TABLE} (connector_id, entity, path, value_type, json_path) VALUES (?, ?, ?, ?, ?)`)
      .run(target.connectorId, target.entity, target.path, target.valueType, jsonPath(target.path));
    const id = Number(lastInsertRowid);
    db.prepare(`${INSERT_KEYS('r')} JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity WHERE p.id = ?`).run(id);
    return id;
  });
  return run.immediate();
}
