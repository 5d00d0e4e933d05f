import type BetterSqlite3 from 'better-sqlite3';
import { RECORD_TABLE } from '../store/index.js';
import { jsonPath } from './sort-keys-sqlite.js';
import { VALUE_KEYS_TABLE, VALUE_PATHS_MOST, VALUE_PATHS_TABLE, type ValueKeyTarget } from './value-key-target.js';

const SCALARS = `('integer', 'real', 'true', 'false', 'text')`;

/** The key columns of a scalar of JSON type `t` and SQL value `x`, as sqliteDialect.sortKey computes an untyped one: rank, number, string. */
const keyOf = (t: string, x: string) =>
  `CASE ${t} WHEN 'text' THEN 1 ELSE 0 END, CASE ${t} WHEN 'integer' THEN ${x} WHEN 'real' THEN ${x} WHEN 'true' THEN 1 ELSE 0 END, CASE ${t} WHEN 'text' THEN ${x} ELSE '' END`;

/** The type and value of an array element `e` at the registered sub-path (the element itself when there is none; objects only otherwise). */
const elementType = `CASE WHEN p.sub_path = '' THEN e.type WHEN e.type = 'object' THEN json_type(e.value, p.sub_path) END`;
const elementValue = `CASE WHEN p.sub_path = '' THEN e.atom WHEN e.type = 'object' THEN json_extract(e.value, p.sub_path) END`;

/**
 * The value keys of the record row `row` (the trigger's `new`, or every record of the path's
 * entity, `r`, for a fill) for the registered paths `p` that `where` picks: one statement for
 * paths of one value, one for paths through arrays.
 */
function insertKeys(row: 'new' | 'r', where: string): string {
  // DISTINCT, not OR IGNORE: in a trigger the statement that fired it decides conflicts (an upsert aborts on them).
  const insert = `INSERT INTO ${VALUE_KEYS_TABLE} (path_id, seq, rank, num, str, id)`;
  const from = `FROM ${VALUE_PATHS_TABLE} AS p${row === 'r' ? ` JOIN ${RECORD_TABLE} AS r ON r.connector_id = p.connector_id AND r.entity = p.entity` : ''}`;
  const single = `json_type(${row}.data, p.json_path)`;
  return `${insert} SELECT DISTINCT p.id, ${row}.seq, ${keyOf(single, `json_extract(${row}.data, p.json_path)`)}, ${row}.id ${from}
      WHERE ${where} AND p.elements = 0 AND ${single} IN ${SCALARS};
    ${insert} SELECT DISTINCT p.id, ${row}.seq, ${keyOf(elementType, elementValue)}, ${row}.id ${from}, json_each(${row}.data, p.top_path) AS e
      WHERE ${where} AND p.elements = 1 AND json_type(${row}.data, p.top_path) = 'array' AND ${elementType} IN ${SCALARS};`;
}

const OF_NEW = 'p.connector_id = new.connector_id AND p.entity = new.entity';

/**
 * The value keys side table: one row per record, registered path and distinct scalar the record
 * holds there (every element's, through an array), WITHOUT ROWID so its index carries seq; the
 * index walks one value's records in id order. Triggers keep it in step with the record table in
 * the writer's own transaction, as the sort keys' do (sort-keys-sqlite.ts). The folded index walks
 * one ASCII-folded string's records in id order, and a `like` prefix's as a range (like-prefix.ts);
 * it carries the primary key, `str` too, so SQLite tests lower(str) from the index alone (an index
 * on lower(str) without it costs a table lookup per key: 3.7 against 0.27 ms for 5,000 keys).
 * IF NOT EXISTS adds it to a side table made before it, at the next registration check (ensure).
 */
const DDL = `
CREATE TABLE IF NOT EXISTS ${VALUE_PATHS_TABLE} (
  id INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  path TEXT NOT NULL,
  json_path TEXT NOT NULL,
  top_path TEXT NOT NULL,
  sub_path TEXT NOT NULL,
  elements INTEGER NOT NULL,
  UNIQUE (connector_id, entity, path)
);
CREATE TABLE IF NOT EXISTS ${VALUE_KEYS_TABLE} (
  path_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  num NOT NULL,
  str TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (seq, path_id, rank, num, str)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ${VALUE_KEYS_TABLE}_walk ON ${VALUE_KEYS_TABLE} (path_id, rank, num, str, id);
CREATE INDEX IF NOT EXISTS ${VALUE_KEYS_TABLE}_folded ON ${VALUE_KEYS_TABLE} (path_id, rank, num, lower(str), id);
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_value_insert AFTER INSERT ON ${RECORD_TABLE} BEGIN
  ${insertKeys('new', OF_NEW)}
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_value_update AFTER UPDATE OF data, connector_id, entity ON ${RECORD_TABLE}
  WHEN old.data IS NOT new.data OR old.connector_id IS NOT new.connector_id OR old.entity IS NOT new.entity BEGIN
  DELETE FROM ${VALUE_KEYS_TABLE} WHERE seq = old.seq;
  ${insertKeys('new', OF_NEW)}
END;
CREATE TRIGGER IF NOT EXISTS ${RECORD_TABLE}_value_delete AFTER DELETE ON ${RECORD_TABLE} BEGIN
  DELETE FROM ${VALUE_KEYS_TABLE} WHERE seq = old.seq;
END;
`;

/** The registered id of a path's value keys, or undefined when none are kept (the side table may not exist yet). */
export function findSqliteValueKeys(db: BetterSqlite3.Database, target: ValueKeyTarget): number | undefined {
  const known = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`).get(VALUE_PATHS_TABLE);
  if (!known) return undefined;
  const row = db
    .prepare(`SELECT id FROM ${VALUE_PATHS_TABLE} WHERE connector_id = ? AND entity = ? AND path = ?`)
    .get(target.connectorId, target.entity, target.path) as { id: number } | undefined;
  return row?.id;
}

/**
 * Starts keeping a path's value keys, as ensureSqliteSortKeys does a path's sort keys: the side
 * table and triggers when missing, the registration and the fill from the records present, in one
 * IMMEDIATE transaction (a crash leaves all or nothing; no write lands between the fill and the
 * triggers). Undefined when the entity already keeps VALUE_PATHS_MOST paths.
 */
export function ensureSqliteValueKeys(db: BetterSqlite3.Database, target: ValueKeyTarget): number | undefined {
  const run = db.transaction(() => {
    db.exec(DDL);
    const found = findSqliteValueKeys(db, target);
    if (found !== undefined) return found;
    const { n } = db.prepare(`SELECT count(*) AS n FROM ${VALUE_PATHS_TABLE} WHERE connector_id = ? AND entity = ?`).get(target.connectorId, target.entity) as {
      n: number;
    };
    if (n >= VALUE_PATHS_MOST) return undefined;
    const { lastInsertRowid } = db
      .prepare(`INSERT INTO ${VALUE_PATHS_TABLE} (connector_id, entity, path, json_path, top_path, sub_path, elements) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(
        target.connectorId,
        target.entity,
        target.path,
        jsonPath(target.path),
        jsonPath(target.top),
        target.sub.length > 0 ? jsonPath(target.sub.join('.')) : '',
        target.elements ? 1 : 0,
      );
    const id = Number(lastInsertRowid);
    // The id is ours, an integer.
    db.exec(insertKeys('r', `p.id = ${id}`));
    return id;
  });
  return run.immediate();
}
