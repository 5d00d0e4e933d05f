import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_TABLE } from '../store/index.js';
import { pairIndexColumns, PAIRS_MOST } from './sort-pair-index.js';
import { SORT_PAIR_PATHS_TABLE, SORT_PAIRS_TABLE, type SortPairTarget } from './sort-key-target.js';
import { jsonPath, keyColumns } from './sort-keys-sqlite.js';

const INSERT_PAIRS = (row: 'new' | 'r') =>
  `INSERT INTO ${SORT_PAIRS_TABLE} (pair_id, seq, rank, num, str, then_rank, then_num, then_str, id) SELECT p.id, ${row}.seq, ${keyColumns(row)}, ${keyColumns(row, 'p.then_json_path', 'p.then_value_type')}, ${row}.id FROM ${SORT_PAIR_PATHS_TABLE} AS p`;

/**
 * The pair side table (one row per record and registered pair: both keys' columns, computed as
 * sort-keys-sqlite.ts computes one path's), and the triggers that keep it in step with the record
 * table in the writer's own transaction. Each pair's index is made when it is registered
 * (pairIndexColumns), in its own directions.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${SORT_PAIR_PATHS_TABLE} (
  id INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  path TEXT NOT NULL,
  value_type TEXT NOT NULL,
  json_path TEXT NOT NULL,
  descending INTEGER NOT NULL,
  then_path TEXT NOT NULL,
  then_value_type TEXT NOT NULL,
  then_json_path TEXT NOT NULL,
  then_descending INTEGER NOT NULL,
  UNIQUE (connector_id, entity, path, value_type, descending, then_path, then_value_type, then_descending)
);
CREATE TABLE IF NOT EXISTS ${SORT_PAIRS_TABLE} (
  pair_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  num NOT NULL,
  str TEXT NOT NULL,
  then_rank INTEGER NOT NULL,
  then_num NOT NULL,
  then_str TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (seq, pair_id)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_pair_insert AFTER INSERT ON ${RECORD_TABLE} BEGIN
  ${INSERT_PAIRS('new')} WHERE p.connector_id = new.connector_id AND p.entity = new.entity;
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_pair_update AFTER UPDATE OF data, connector_id, entity ON ${RECORD_TABLE}
  WHEN old.data IS NOT new.data OR old.connector_id IS NOT new.connector_id OR old.entity IS NOT new.entity BEGIN
  DELETE FROM ${SORT_PAIRS_TABLE} WHERE seq = old.seq;
  ${INSERT_PAIRS('new')} WHERE p.connector_id = new.connector_id AND p.entity = new.entity;
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_pair_delete AFTER DELETE ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${SORT_PAIRS_TABLE} WHERE seq = old.seq;
END;
`;

const FIND = `SELECT id FROM ${SORT_PAIR_PATHS_TABLE} WHERE connector_id = ? AND entity = ? AND path = ? AND value_type = ? AND descending = ? AND then_path = ? AND then_value_type = ? AND then_descending = ?`;

const findArgs = (t: SortPairTarget) => [
  t.connectorId,
  t.entity,
  t.first.path,
  t.first.valueType,
  t.first.descending ? 1 : 0,
  t.then.path,
  t.then.valueType,
  t.then.descending ? 1 : 0,
];

/** The registered id of a pair's keys, or undefined when none are kept (the side table may not exist yet). */
export function findSqliteSortPair(db: BetterSqlite3.Database, target: SortPairTarget): number | undefined {
  const known = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`).get(SORT_PAIR_PATHS_TABLE);
  if (!known) return undefined;
  return (db.prepare(FIND).get(...findArgs(target)) as { id: number } | undefined)?.id;
}

/**
 * Starts keeping a pair's keys, as ensureSqliteSortKeys does a path's: the side table and triggers
 * when missing, the registration, the fill from the records present and the pair's own index, in
 * one IMMEDIATE transaction (a crash leaves all or nothing; no write lands between the fill and
 * the triggers). Undefined when the entity already keeps PAIRS_MOST pairs: the request is then
 * served by its first path's keys.
 */
export function ensureSqliteSortPair(db: BetterSqlite3.Database, target: SortPairTarget): number | undefined {
  const run = db.transaction(() => {
    db.exec(DDL);
    const found = findSqliteSortPair(db, target);
    if (found !== undefined) return found;
    const { n } = db
      .prepare(`SELECT count(*) AS n FROM ${SORT_PAIR_PATHS_TABLE} WHERE connector_id = ? AND entity = ?`)
      .get(target.connectorId, target.entity) as {
      n: number;
    };
    if (n >= PAIRS_MOST) return undefined;
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO ${SORT_PAIR_PATHS_TABLE} (connector_id, entity, path, value_type, json_path, descending, then_path, then_value_type, then_json_path, then_descending)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        target.connectorId,
        target.entity,
        target.first.path,
        target.first.valueType,
        jsonPath(target.first.path),
        target.first.descending ? 1 : 0,
        target.then.path,
        target.then.valueType,
        jsonPath(target.then.path),
        target.then.descending ? 1 : 0,
      );
    const id = Number(lastInsertRowid);
    db.prepare(`${INSERT_PAIRS('r')} JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity WHERE p.id = ?`).run(id);
    // Built after the fill (one sort, not one insert per key); the id is ours, an integer.
    db.exec(`CREATE INDEX ${SORT_PAIRS_TABLE}_${id} ON ${SORT_PAIRS_TABLE} (${pairIndexColumns(target)}) WHERE pair_id = ${id}`);
    return id;
  });
  return run.immediate();
}
