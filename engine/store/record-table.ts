import type { StoreDialect } from './types.js';

/** The table that holds the synchronized copy: one row per record, `data` is the record as JSON. */
export const RECORD_TABLE = 'search_records';
/**
 * SQLite only: the FTS5 trigram index of the text. Since schema version 3 it holds one row per
 * record and field path (rowid = path id << TEXT_ROW_SEQ_BITS | record seq, so one field of one
 * entity is one rowid range), with the field's strings folded (ASCII lower case), each padded
 * with a space.
 */
export const RECORD_TEXT_TABLE = 'search_records_text';
/** SQLite only: the FTS5 word index (`ascii` tokenizer), rows as in RECORD_TEXT_TABLE with the strings as written. */
export const RECORD_WORDS_TABLE = 'search_records_words';
/** SQLite only: the field paths of the text indexes, one id per connector, entity and path. */
export const RECORD_PATHS_TABLE = 'search_text_paths';
/** Low bits of a text index rowid that hold the record's seq; the path id sits above them. */
export const TEXT_ROW_SEQ_BITS = 36;

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
 * DDL of the record table as schema version 2 created it (with the first text index, which
 * version 3 replaces: see searchIndexDdl). Migration 2 runs exactly this, so it never changes.
 * Writers upsert `(connector_id, entity, id, data, updated_at)` with
 * `ON CONFLICT (connector_id, entity, id) DO UPDATE`; the text index follows by itself.
 *
 * SQLite: the natural key is UNIQUE and `seq` is an alias of rowid (VACUUM keeps it).
 * PostgreSQL: `id` uses the "C" collation so the primary key orders ids exactly as SQLite does;
 * GIN `jsonb_path_ops` serves `eq`/`in` by containment.
 */
export function recordTableDdl(dialect: StoreDialect): string {
  return dialect === 'sqlite' ? SQLITE_DDL : POSTGRES_DDL;
}

/** Most segments a searchable field path has (SEARCH_LIMITS.maxPathSegments); deeper strings are not indexed. */
const MAX_SEGMENTS = 8;
/** Longest path segment a search may name (SEARCH_LIMITS.maxSegmentLength); longer keys are not indexed. */
const MAX_SEGMENT_LENGTH = 128;
/** Records the text indexes can hold: seq sits below the path id (TEXT_ROW_SEQ_BITS). */
const MAX_SEQ = 2 ** TEXT_ROW_SEQ_BITS;
/** Most path ids the SQLite text indexes can hold: ids sit above the seq in a signed 64-bit rowid. */
const MAX_PATH_IDS = 2 ** (63 - TEXT_ROW_SEQ_BITS);

const STAGING_TABLE = 'search_text_staging';

/**
 * SQLite: every string of a JSON document with its index path, as `path, value` rows. Object
 * members are followed to MAX_SEGMENTS segments; a top-level array contributes its elements
 * (`tags[]`) and their members (`followers[].gid`); arrays anywhere else are not searchable and are
 * skipped. A key holding `.` or `[` (which a search can never name) is skipped with what is under
 * it, so each path spelling means one place. One `json_each` per level, LEFT JOINed: a row's
 * deepest present level is its leaf.
 */
function sqliteLeaves(doc: string, from = '', columns = ''): string {
  const levels = MAX_SEGMENTS + 1; // a top-level array adds the element level
  const joins = [`${from}json_each(${doc}) AS n1`];
  for (let i = 2; i <= levels; i++) {
    const parent = `n${i - 1}`;
    const descend =
      i === 2 ? `${parent}.type IN ('object', 'array')` : i === levels ? `${parent}.type = 'object' AND n1.type = 'array'` : `${parent}.type = 'object'`;
    joins.push(`LEFT JOIN json_each(CASE WHEN ${descend} THEN ${parent}.value END) AS n${i}`);
  }
  const deepest = (column: string) => `coalesce(${Array.from({ length: levels }, (_, i) => `n${levels - i}.${column}`).join(', ')})`;
  let path = `n1.key || CASE WHEN n2.type IS NULL THEN '' WHEN n1.type = 'array' THEN '[]' ELSE '.' || n2.key END`;
  for (let i = 3; i <= levels; i++) path += ` || coalesce('.' || n${i}.key, '')`;
  const keyOk = (level: number) =>
    `(n${level}.key IS NULL${level === 2 ? " OR n1.type = 'array'" : ''} OR (instr(n${level}.key, '.') = 0 AND instr(n${level}.key, '[') = 0 AND length(n${level}.key) <= ${MAX_SEGMENT_LENGTH}))`;
  const valid = Array.from({ length: levels }, (_, i) => keyOk(i + 1)).join(' AND ');
  return `SELECT ${columns}${path} AS path, ${deepest('atom')} AS value FROM ${joins.join(' ')} WHERE ${deepest('type')} = 'text' AND ${valid}`;
}

/** SQLite trigger steps that index `new`'s strings: stage them once, add unknown paths, then one FTS row per path in each index. */
function sqliteIndexRow(row: 'new'): string {
  const rowid = `(p.id << ${TEXT_ROW_SEQ_BITS}) | ${row}.seq`;
  const from = `FROM ${STAGING_TABLE} AS s JOIN ${RECORD_PATHS_TABLE} AS p ON p.connector_id = ${row}.connector_id AND p.entity = ${row}.entity AND p.path = s.path GROUP BY p.id`;
  return `
  SELECT RAISE(ABORT, 'search_records.seq is beyond the text index rowid range') WHERE ${row}.seq >= ${MAX_SEQ};
  INSERT INTO ${STAGING_TABLE} (path, value) ${sqliteLeaves(`${row}.data`)};
  INSERT INTO ${RECORD_PATHS_TABLE} (connector_id, entity, path) SELECT DISTINCT ${row}.connector_id, ${row}.entity, s.path FROM ${STAGING_TABLE} AS s
    WHERE NOT EXISTS (SELECT 1 FROM ${RECORD_PATHS_TABLE} AS p WHERE p.connector_id = ${row}.connector_id AND p.entity = ${row}.entity AND p.path = s.path);
  SELECT RAISE(ABORT, 'the text index has no room for more field paths') WHERE (SELECT max(id) FROM ${RECORD_PATHS_TABLE}) >= ${MAX_PATH_IDS};
  INSERT INTO ${RECORD_WORDS_TABLE} (rowid, body) SELECT ${rowid}, group_concat(s.value, char(10)) ${from};
  INSERT INTO ${RECORD_TEXT_TABLE} (rowid, body) SELECT ${rowid}, group_concat(' ' || lower(s.value) || ' ', char(10)) ${from};
  DELETE FROM ${STAGING_TABLE};`;
}

/** SQLite trigger steps that remove `old`'s rows from both text indexes (found from its strings' paths). */
function sqliteUnindexRow(row: 'old'): string {
  const rowids = `SELECT (p.id << ${TEXT_ROW_SEQ_BITS}) | ${row}.seq FROM ${RECORD_PATHS_TABLE} AS p WHERE p.connector_id = ${row}.connector_id AND p.entity = ${row}.entity AND p.path IN (SELECT path FROM ${STAGING_TABLE})`;
  return `
  INSERT INTO ${STAGING_TABLE} (path, value) ${sqliteLeaves(`${row}.data`)};
  DELETE FROM ${RECORD_WORDS_TABLE} WHERE rowid IN (${rowids});
  DELETE FROM ${RECORD_TEXT_TABLE} WHERE rowid IN (${rowids});
  DELETE FROM ${STAGING_TABLE};`;
}

const SQLITE_BACKFILL_JOIN = `JOIN ${RECORD_PATHS_TABLE} AS p ON p.connector_id = l.connector_id AND p.entity = l.entity AND p.path = l.path`;
const SQLITE_BACKFILL_LEAVES = `(${sqliteLeaves('r.data', `${RECORD_TABLE} AS r JOIN `, 'r.seq AS seq, r.connector_id AS connector_id, r.entity AS entity, ')}) AS l`;

const SQLITE_SEARCH_INDEX_DDL = `
DROP TRIGGER IF EXISTS ${RECORD_TABLE}_text_insert;
DROP TRIGGER IF EXISTS ${RECORD_TABLE}_text_update;
DROP TRIGGER IF EXISTS ${RECORD_TABLE}_text_delete;
DROP TABLE IF EXISTS ${RECORD_TEXT_TABLE};
CREATE TABLE ${RECORD_PATHS_TABLE} (
  id INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  path TEXT NOT NULL,
  UNIQUE (connector_id, entity, path)
);
CREATE TABLE ${STAGING_TABLE} (path TEXT NOT NULL, value TEXT NOT NULL);
CREATE VIRTUAL TABLE ${RECORD_WORDS_TABLE} USING fts5(body, tokenize = 'ascii', content = '', contentless_delete = 1, detail = none);
CREATE VIRTUAL TABLE ${RECORD_TEXT_TABLE} USING fts5(body, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = none);
CREATE TRIGGER ${RECORD_TABLE}_index_insert AFTER INSERT ON ${RECORD_TABLE} BEGIN${sqliteIndexRow('new')}
END;
CREATE TRIGGER ${RECORD_TABLE}_index_update AFTER UPDATE OF data, connector_id, entity ON ${RECORD_TABLE}
  WHEN old.data IS NOT new.data OR old.connector_id IS NOT new.connector_id OR old.entity IS NOT new.entity BEGIN${sqliteUnindexRow('old')}${sqliteIndexRow('new')}
END;
CREATE TRIGGER ${RECORD_TABLE}_index_delete AFTER DELETE ON ${RECORD_TABLE} BEGIN${sqliteUnindexRow('old')}
END;
INSERT OR IGNORE INTO ${RECORD_PATHS_TABLE} (connector_id, entity, path) SELECT DISTINCT l.connector_id, l.entity, l.path FROM ${SQLITE_BACKFILL_LEAVES};
INSERT INTO ${RECORD_WORDS_TABLE} (rowid, body)
  SELECT (p.id << ${TEXT_ROW_SEQ_BITS}) | l.seq, group_concat(l.value, char(10))
  FROM ${SQLITE_BACKFILL_LEAVES} ${SQLITE_BACKFILL_JOIN} GROUP BY p.id, l.seq ORDER BY p.id, l.seq;
INSERT INTO ${RECORD_TEXT_TABLE} (rowid, body)
  SELECT (p.id << ${TEXT_ROW_SEQ_BITS}) | l.seq, group_concat(' ' || lower(l.value) || ' ', char(10))
  FROM ${SQLITE_BACKFILL_LEAVES} ${SQLITE_BACKFILL_JOIN} GROUP BY p.id, l.seq ORDER BY p.id, l.seq;
`;

/** Most trigram terms a record's tsvector takes: each is at most 12 bytes (code + show_trgm's text), a tsvector holds 1 MB. */
const MAX_RECORD_TRIGRAMS = 80_000;

/**
 * The PostgreSQL function that lists a JSON object's strings as index terms: each string's pg_trgm
 * trigrams behind its field path's code (four hex digits of the md5 of the path), each term
 * started by \x01. With `pairs` (schema version 11), each string also gives its word pairs
 * (search_word_pairs): the last character before and the first after every single space between
 * two non-spaces, which pg_trgm's word trigrams cannot tell (engine/search/pg-trigrams.ts).
 */
function objectTrigramsFunction(pairs: boolean): string {
  const pairsOf = (value: string, code: string, indent: string) =>
    pairs ? `\n${indent}out := out || search_word_pairs(lower((${value} #>> '{}') COLLATE "C"), ${code});` : '';
  return `CREATE OR REPLACE FUNCTION search_object_trigrams(prefix text, doc jsonb, depth integer) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $fn$
  DECLARE
    key text;
    value jsonb;
    element jsonb;
    kind text;
    path text;
    code text;
    trigrams text[];
    out text := '';
  BEGIN
    FOR key, value IN SELECT * FROM jsonb_each(doc) LOOP
      CONTINUE WHEN strpos(key, '.') > 0 OR strpos(key, '[') > 0 OR char_length(key) > ${MAX_SEGMENT_LENGTH};
      path := prefix || key;
      kind := jsonb_typeof(value);
      IF kind = 'string' THEN
        trigrams := show_trgm(lower((value #>> '{}') COLLATE "C"));
        IF cardinality(trigrams) > 0 THEN
          code := E'\\x01' || left(md5(path), 4);
          out := out || code || array_to_string(trigrams, code);
        END IF;${pairsOf('value', "E'\\x01' || left(md5(path), 4)", '        ')}
      ELSIF kind = 'object' AND depth + 1 < ${MAX_SEGMENTS} THEN
        out := out || search_object_trigrams(path || '.', value, depth + 1);
      ELSIF kind = 'array' AND depth = 0 THEN
        code := E'\\x01' || left(md5(path || '[]'), 4);
        FOR element IN SELECT * FROM jsonb_array_elements(value) LOOP
          kind := jsonb_typeof(element);
          IF kind = 'string' THEN
            trigrams := show_trgm(lower((element #>> '{}') COLLATE "C"));
            IF cardinality(trigrams) > 0 THEN
              out := out || code || array_to_string(trigrams, code);
            END IF;${pairsOf('element', 'code', '            ')}
          ELSIF kind = 'object' THEN
            out := out || search_object_trigrams(path || '[].', element, 1);
          END IF;
        END LOOP;
      END IF;
    END LOOP;
    RETURN out;
  END
  $fn$;`;
}

const POSTGRES_TRIGRAM_COLUMN = `ALTER TABLE ${RECORD_TABLE} ADD COLUMN search_trigrams tsvector GENERATED ALWAYS AS (search_record_trigrams(data)) STORED;
CREATE INDEX ${RECORD_TABLE}_trigrams ON ${RECORD_TABLE} USING gin (search_trigrams);
CREATE INDEX ${RECORD_TABLE}_untrigrammed ON ${RECORD_TABLE} (connector_id, entity) WHERE search_trigrams IS NULL;
`;

const POSTGRES_SEARCH_INDEX_DDL = `
ALTER TABLE ${RECORD_TABLE} DROP COLUMN IF EXISTS search_text;
DROP FUNCTION IF EXISTS search_record_text(jsonb);
${objectTrigramsFunction(false)}
CREATE OR REPLACE FUNCTION search_record_trigrams(doc jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $fn$
    SELECT CASE WHEN cardinality(t) <= ${MAX_RECORD_TRIGRAMS} THEN array_to_tsvector(t) END
    FROM string_to_array(substr(CASE WHEN jsonb_typeof(doc) = 'object' THEN search_object_trigrams('', doc, 0) ELSE '' END, 2), E'\\x01') AS t
  $fn$;
${POSTGRES_TRIGRAM_COLUMN}`;

/**
 * Schema version 3: text indexes that answer per field (DESIGN.md §7), replacing version 2's
 * one-blob-per-record index. Applied after recordTableDdl; fills itself from the rows present.
 *
 * SQLite: each string of a record is filed under its field path (`name`, `assignee.name`,
 * `tags[]`, `followers[].gid`; see sqliteLeaves); `search_text_paths` numbers the paths per
 * connector and entity, and two contentless FTS5 tables hold one row per record and path, rowid =
 * path id << 36 | seq, so one field of one entity is one rowid range the index seeks to:
 * `search_records_words` (`ascii` tokenizer: exactly the `keyword` words) and
 * `search_records_text` (trigrams of the folded, space-padded strings: exactly the `fuzzy`
 * trigrams, and every piece of a `like` or an equality). Triggers keep them in step through a
 * staging table (triggers cannot hold CTEs, and the strings are read once; paths are added with
 * NOT EXISTS because an upsert's conflict handling would override OR IGNORE inside a trigger); an
 * update that leaves `data` as it was costs nothing. Path-major rowids make FTS5 flush its pending
 * terms once per record (a record's rowids are not all above the last one written); seq-major
 * ones would write faster but make every query walk its field's whole posting list.
 *
 * PostgreSQL: a generated tsvector of pg_trgm's trigrams of every string, each behind its field's
 * code (four hex digits of the md5 of its path), so one field's trigrams are not another's
 * (engine/search/pg-trigrams.ts builds the queries), with a GIN index. A record whose trigrams
 * would not fit a tsvector keeps NULL there and is always a candidate (a small partial index finds
 * those).
 */
export function searchIndexDdl(dialect: StoreDialect): string {
  return dialect === 'sqlite' ? SQLITE_SEARCH_INDEX_DDL : POSTGRES_SEARCH_INDEX_DDL;
}

const POSTGRES_WORD_PAIRS_DDL = `
CREATE OR REPLACE FUNCTION search_word_pairs(folded text, code text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $fn$
  DECLARE
    words text[] := string_to_array(folded, ' ');
    out text := '';
  BEGIN
    FOR i IN 1 .. cardinality(words) - 1 LOOP
      IF words[i] <> '' AND words[i + 1] <> '' THEN
        out := out || code || right(words[i], 1) || ' ' || left(words[i + 1], 1);
      END IF;
    END LOOP;
    RETURN out;
  END
  $fn$;
ALTER TABLE ${RECORD_TABLE} DROP COLUMN search_trigrams;
${objectTrigramsFunction(true)}
${POSTGRES_TRIGRAM_COLUMN}`;

/**
 * Schema version 11, PostgreSQL only: the text index also holds each string's word pairs, terms
 * like "p s" for "roadmap sprint" (the characters on each side of a single space between two
 * non-spaces), so a `like` whose text spans words asks for them side by side: pg_trgm's trigrams
 * are per word, and without pairs every record holding both words was a candidate (1,443 against
 * 505 for "roadmap sprint" at 100,000 records, scripts/bench-search.ts). The column and its
 * indexes are built again from the rows present. SQLite's FTS5 trigrams span words already.
 */
export function searchWordPairsDdl(dialect: StoreDialect): string {
  return dialect === 'sqlite' ? '' : POSTGRES_WORD_PAIRS_DDL;
}

/** The record table as the latest schema has it (recordTableDdl, searchIndexDdl, searchWordPairsDdl), for tests and benchmarks that create it without the store. */
export function recordSchemaDdl(dialect: StoreDialect): string {
  return `${recordTableDdl(dialect)}\n${searchIndexDdl(dialect)}\n${searchWordPairsDdl(dialect)}`;
}
