import { indexPath } from './field-path.js';
import { allOf, renderIndexQuery, term } from './index-query.js';
import { pathCode, pgTrigramsOf } from './pg-trigrams.js';
import { pgInstant } from './postgres-instant.js';
import { pgAccess, pgAccessText, pgBest, pgFoldedText, pgSingle, pgTest, pgText } from './postgres-json.js';
import { RECORD_TABLE } from '../store/index.js';
import { INDEXED_IN_VALUES, type SqlDialect } from './sql-dialect.js';
import type { SqlParams } from './sql-params.js';
import { STRICT_NUMBER_SOURCE } from '../store/index.js';
import { heldGrams } from './text-sql.js';
import { keywordWords, likeSqlPattern } from './text-match.js';
import type { FieldRef } from './types.js';

/**
 * The numeric value of a number-typed path: a JSON number, or a string that passes the strict rule
 * (engine/search/strict-number.ts) before its cast, so no row can raise a cast error; else NULL.
 */
function pgNumber(v: string, params: SqlParams): string {
  const text = `(${v} #>> '{}')`;
  return `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${v})::float8 WHEN 'string' THEN (CASE WHEN ${text} ~ ${params.add(STRICT_NUMBER_SOURCE)}::text THEN ${text}::float8 END) END)`;
}

/** The value a typed path compares and sorts by (a number or an instant, as float8), NULL when it has none. */
export function pgTyped(field: FieldRef, v: string, params: SqlParams): string {
  return field.valueType === 'date-time' ? pgInstant(v, params) : pgNumber(v, params);
}

const OPS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** A character that ends a keyword word after folding: ASCII, and not a letter or digit (see KEYWORD_SEPARATORS). */
const NOT_WORD = '[^0-9a-z\u0080-\u{10FFFF}]';

const regexEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Sums per-unit tests on one text `h`, computed once per value: a one-row subquery the planner
 * may not inline (OFFSET 0), since it would otherwise repeat `h` (a jsonb lookup and lower()) for
 * every unit. 0 when `h` is NULL (no string).
 */
function onceEach(h: string, tests: readonly string[]): string {
  return `coalesce((SELECT ${tests.join(' + ')} FROM (SELECT ${h} AS h OFFSET 0) AS x), 0)`;
}

/**
 * What each of a gate group's trigrams holds of the folded value itself: the trigram less the
 * padding spaces at its ends (" qu" holds "qu" wherever it occurs in " <value> ", as the padding is
 * only at the ends). A value holding some trigram of the group holds one of these; one that holds
 * another is left out ("qua" holds "qu"), so a group of one word's trigrams is one test.
 */
function gramCores(group: readonly string[]): string[] {
  const cores = [...new Set(group.map((gram) => gram.replace(/^ +| +$/g, '')))];
  return cores.filter((core, i) => !cores.some((other, j) => j !== i && core.includes(other)));
}

/** The document `{"top": {"sub": value}}` (or `{"top": [...]}` for arrays) whose containment means equality. */
function containmentDocument(field: FieldRef, value: string | number | boolean): string {
  const inner = field.sub.reduceRight<unknown>((nested, segment) => ({ [segment]: nested }), value);
  return JSON.stringify({ [field.top]: field.elements ? [inner] : inner });
}

/** The index terms (the field's code, then a pg_trgm trigram) a value holding `text` must have. */
function trigramTerms(field: FieldRef, text: string, start: boolean, end: boolean, pairs = true) {
  const code = pathCode(indexPath(field));
  return allOf(pgTrigramsOf(text, start, end, pairs).map((trigram) => term(`${code}${trigram}`)));
}

/** tsquery literal: single quotes, inner quotes doubled and backslashes escaped. */
const tsQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The PostgreSQL dialect: jsonb operators, containment for equality (GIN jsonb_path_ops), and a
 * tsvector of every field's pg_trgm trigrams behind the field's code (GIN) to narrow text
 * operators down.
 */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  table: RECORD_TABLE,
  rowRef: 'r.id',
  prefiltersEquality: false,
  fence: ' OFFSET 0',
  windowAsSubquery: true,

  tupleId: 'r.ctid',

  candidateRow() {
    // A TID scan per candidate, as it is reached (ctid names one row version for the whole statement).
    return `CROSS JOIN LATERAL (SELECT * FROM ${RECORD_TABLE} AS l WHERE l.ctid = n.tid OFFSET 0) AS r`;
  },

  indexListed() {
    return false;
  },

  lookupRow({ params, scope }) {
    // A LATERAL subquery the planner may not flatten (OFFSET 0): the planned rows are produced once
    // and each gets one primary-key lookup, whatever the planner guesses about their number.
    const key = `l.connector_id = ${params.add(scope.connectorId)} AND l.entity = ${params.add(scope.entity)} AND l.id = q.ref`;
    return `CROSS JOIN LATERAL (SELECT l.id, l.data FROM ${RECORD_TABLE} AS l WHERE ${key} OFFSET 0) AS r`;
  },

  sortKeysRef: 's.id',

  sortKeysRecord({ params, scope }) {
    return `JOIN ${RECORD_TABLE} AS r ON r.connector_id = ${params.add(scope.connectorId)} AND r.entity = ${params.add(scope.entity)} AND r.id = s.id`;
  },

  compare(field, op, value, { params }) {
    if (field.valueType) return pgTest(field, params, (v) => `(${pgTyped(field, v, params)} ${OPS[op]} ${params.add(value)}::float8)`);
    if (op === 'eq') return `(r.data @> ${params.add(containmentDocument(field, value))}::jsonb)`;
    return pgTest(field, params, (v) =>
      typeof value === 'string'
        ? `(jsonb_typeof(${v}) = 'string' AND (${v} #>> '{}') COLLATE "C" ${OPS[op]} ${params.add(value)}::text)`
        : `(jsonb_typeof(${v}) = 'number' AND ${v} ${OPS[op]} ${params.add(JSON.stringify(value))}::jsonb)`,
    );
  },

  anyEqual(field, values, { params }) {
    if (field.valueType) return pgTest(field, params, (v) => `(${pgTyped(field, v, params)} = ANY(${params.add(values)}::float8[]))`);
    if (values.length <= INDEXED_IN_VALUES) {
      // The containment `eq` writes, over one bound jsonb[]: GIN serves `@> ANY(...)` in a bitmap index scan.
      return `(r.data @> ANY(${params.add(values.map((value) => containmentDocument(field, value)))}::jsonb[]))`;
    }
    // jsonb equality of the value (or an element) is what containment of a scalar means at a path:
    // numbers compare as numbers, strings byte for byte, and an array or object never equals a
    // scalar. A long constant list is hashed, one lookup per row.
    const list = params.add(values.map((value) => JSON.stringify(value)));
    return pgTest(field, params, (v) => `(${v} = ANY(${list}::jsonb[]))`);
  },

  isNull(field, { params }) {
    return `coalesce(jsonb_typeof(${pgAccess('r.data', [field.top, ...field.sub], params)}), 'null') = 'null'`;
  },

  textCount(node, { params, absent }, gate) {
    if (node.op === 'like') {
      const pattern = params.add(likeSqlPattern(node.text));
      // The pattern first, on the raw text (most rows fail it), then the type: a number's or an object's text must not match.
      return pgBest(
        node.field,
        params,
        (v, text) => `CASE WHEN lower(${text()} COLLATE "C") LIKE ${pattern}::text AND jsonb_typeof(${v}) = 'string' THEN 1 ELSE 0 END`,
      );
    }
    if (node.op === 'fuzzy') {
      const found = (gram: string) => `strpos(x.h, ${params.add(gram)}::text) > 0`;
      // Trigrams no record holds add nothing in a read that knows them (a levels read); with every one absent, the count is 0.
      const sum =
        heldGrams(node, absent)
          .map((gram) => `(${found(gram)})::int`)
          .join(' + ') || '0';
      // CASE evaluates its condition first, and AND and OR stop as soon as they know: the gate stops at its first group with no trigram found.
      const count = gate ? `CASE WHEN ${gate.map((group) => `(${group.map(found).join(' OR ')})`).join(' AND ')} THEN ${sum} ELSE 0 END` : sum;
      const first = gate?.[0];
      return pgBest(node.field, params, (v, text) => {
        const counted = onceEach(`' ' || lower(${pgText(v)}) || ' '`, [count]);
        if (!first) return counted;
        // The gate's first group, on the value's raw text before the padded string is built (most rows fail it there).
        const cores = gramCores(first).map((core) => `strpos(lower(${text()} COLLATE "C"), ${params.add(core)}::text) > 0`);
        return `CASE WHEN ${cores.join(' OR ')} THEN ${counted} ELSE 0 END`;
      });
    }
    const found = keywordWords(node.text).map((word) => `(x.h ~ ${params.add(`${NOT_WORD}${regexEscape(word)}${NOT_WORD}`)}::text)::int`);
    return onceEach(`' ' || ${pgFoldedText(node.field, params)} || ' '`, found);
  },

  textGate(node, count, { params }) {
    // A word the count finds (a regular expression on the value's string lowered in "C") is a substring of the value's text lowered alike, so
    // a row whose count reaches `count` holds that many words as substrings. Reading the name's text costs a third of reading the record's
    // trigrams for the index test, and most rows of a sparse level fail here (1,000,000 records, scripts/bench-search.ts: a 7,200-row walk
    // of the deep page by score, 15 against 27 ms). Elements are joined before they are counted: their text is left to the index test.
    if (node.op !== 'keyword' || node.field.elements) return undefined;
    const text = pgAccessText('r.data', [node.field.top, ...node.field.sub], params);
    const found = keywordWords(node.text).map((word) => `strpos(lower(${text} COLLATE "C"), ${params.add(word)}::text) > 0`);
    if (count >= found.length) return `(${found.join(' AND ')})`;
    return count <= 1 ? `(${found.join(' OR ')})` : `((${found.map((test) => `(${test})::int`).join(' + ')}) >= ${count})`;
  },

  likeMatch(node, ctx) {
    const { params } = ctx;
    if (node.field.elements) return `(${postgresDialect.textCount(node, ctx)}) >= 1`;
    // The LIKE first, on the value's text: only a value that passes it has its type read (a string, as the count's test wants).
    const segments = [node.field.top, ...node.field.sub];
    const like = `lower(${pgAccessText('r.data', segments, params)} COLLATE "C") LIKE ${params.add(likeSqlPattern(node.text))}::text`;
    return `coalesce(${like} AND jsonb_typeof(${pgSingle(node.field, params)}) = 'string', false)`;
  },

  indexWord(field, word) {
    return trigramTerms(field, word, true, true);
  },

  indexGram(field, gram, pairs = false) {
    // A fuzzy trigram across a space stays a unit the index cannot tell ("k of n" counts it as
    // present): asked as a word pair, the query's combinations grow and its scan cost 20% more
    // backend CPU for the bench's fuzzy shapes at 100,000 records. A query that needs every
    // trigram asks the pair (text-sql.ts): "quarterly r" names 635 candidates where the words
    // alone name 1,422 (scripts/bench-search.ts, "quartrly reprot" at 100,000 records).
    return trigramTerms(field, gram, false, false, pairs);
  },

  indexText(field, text, start, end) {
    return trigramTerms(field, text, start, end);
  },

  indexFilter(_field, space, query, { params, probe }) {
    if (typeof query === 'boolean') return query ? 'true' : 'false';
    // A row read in id order is left to the exact test of a `like` (one LIKE), which always
    // follows an index test: reading its tsvector costs more than that test (15-20% of a
    // "like %infix%" page at 100,000 records, scripts/bench-search.ts). A keyword's exact test is
    // a regular expression per word, dearer than the tsvector test, so its rows keep it.
    if (probe && space === 'text') return 'true';
    const tsquery = `${params.add(renderIndexQuery(query, tsQuote, ' & ', ' | '))}::tsquery`;
    // ts_match_vq() is @@ under another name, which the GIN index does not serve: the row is tested, not looked up.
    const test = probe ? `ts_match_vq(r.search_trigrams, ${tsquery})` : `r.search_trigrams @@ ${tsquery}`;
    // A record too large for a tsvector keeps NULL there (see record-table.ts) and is always a candidate.
    return `(${test} OR r.search_trigrams IS NULL)`;
  },

  indexMayHold(_field, _space, query, { params }) {
    if (typeof query === 'boolean') return query ? 'true' : 'false';
    // Asked of every scope's rows (the index holds no scope, and a scope test would visit them):
    // a row of another scope only makes the answer "may" where it is "no". The planner reads the
    // index for a term its statistics call rare, and scans for one they call common, which a scan
    // meets within a few rows.
    return `EXISTS (SELECT 1 FROM ${RECORD_TABLE} AS p WHERE p.search_trigrams @@ ${params.add(renderIndexQuery(query, tsQuote, ' & ', ' | '))}::tsquery)`;
  },

  indexHoldsEveryRow({ params, scope }) {
    // A record too large for a tsvector keeps NULL there (see indexFilter); the partial index finds those.
    return `NOT EXISTS (SELECT 1 FROM ${RECORD_TABLE} AS p WHERE p.connector_id = ${params.add(scope.connectorId)} AND p.entity = ${params.add(scope.entity)} AND p.search_trigrams IS NULL)`;
  },

  sortKey(field, { params }) {
    const v = pgSingle(field, params);
    if (field.valueType) {
      // Numbers (strict decimal strings, instants) in the number slot; anything else sorts like a missing value.
      const n = pgTyped(field, v, params);
      return [`(CASE WHEN ${n} IS NULL THEN 2 ELSE 0 END)`, `coalesce(${n}, 0::float8)`, `''::text COLLATE "C"`];
    }
    return [
      `(CASE jsonb_typeof(${v}) WHEN 'number' THEN 0 WHEN 'boolean' THEN 0 WHEN 'string' THEN 1 ELSE 2 END)`,
      `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${v})::float8 WHEN 'boolean' THEN (CASE WHEN ${v} = 'true'::jsonb THEN 1 ELSE 0 END)::float8 ELSE 0::float8 END)`,
      `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${v} #>> '{}' ELSE '' END) COLLATE "C"`,
    ];
  },

  keyParam(slot, value, { params }) {
    const cast = slot === 'rank' ? 'int' : slot === 'number' || slot === 'score' ? 'float8' : 'text';
    return `${params.add(value)}::${cast}`;
  },

  keyColumn(slot, column) {
    return slot === 'string' || slot === 'id' ? `${column} COLLATE "C"` : column;
  },

  share(count, of) {
    return `((${count})::float8 / ${of})`;
  },
};
