import { indexPath } from './field-path.js';
import { allOf, renderIndexQuery, term, type IndexQuery } from './index-query.js';
import { RECORD_TABLE, RECORD_TEXT_TABLE, RECORD_WORDS_TABLE } from '../store/index.js';
import { candidatesSql, foundList, listKey } from './sqlite-index-lists.js';
import { keptLevelList, levelSeen } from './sqlite-level-lists.js';
import type { IndexSpace, SqlDialect } from './sql-dialect.js';
import { sqliteBest, sqliteFoldedText, sqliteSingle, sqliteTest, type SqliteValue } from './sqlite-json.js';
import { SQLITE_INSTANT_FUNCTION } from '../store/index.js';
import { SQLITE_NUMBER_FUNCTION } from '../store/index.js';
import type { SqlParams } from './sql-params.js';
import { heldGrams } from './text-sql.js';
import { keywordWords, likeSqlPattern } from './text-match.js';
import type { FieldRef } from './types.js';

const OPS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * The value a typed path compares and sorts by: its number (engine/search/strict-number.ts) or its
 * instant in epoch ms (engine/search/strict-instant.ts); NULL when it has none.
 */
const sqliteTyped = (field: FieldRef, v: SqliteValue) =>
  `${field.valueType === 'date-time' ? SQLITE_INSTANT_FUNCTION : SQLITE_NUMBER_FUNCTION}(${v.type}, ${v.value})`;

/** A character that ends a keyword word after folding: not an ASCII letter or digit, and ASCII. */
const NOT_WORD = '[^0-9a-z\u0080-\u{10FFFF}]';

/**
 * 1 when the padded folded text `h.v` holds `word` whole, else 0. instr() first: it rules out most
 * values. Then the characters either side of the first occurrence: in nearly every value that holds
 * the word, that occurrence is whole. Only where it is not (as in "invoices, invoice") does the
 * GLOB over the whole text decide, which costs more than the rest together: a leading `*` with a
 * character class, tried at every position (0.8 of a 2.4 ms keyword read at 100,000 records,
 * scripts/bench-search.ts "keyword"). instr() and substr() both count characters, so the word's
 * length is its code points. `edge` is the marker of NOT_WORD, bound once per statement.
 */
function keywordWordFound(word: string, edge: string, params: SqlParams): string {
  const w = params.add(word);
  const at = `instr(h.v, ${w})`;
  const before = `substr(h.v, ${at} - 1, 1) GLOB ${edge}`;
  const after = `substr(h.v, ${at} + ${params.add(Array.from(word).length)}, 1) GLOB ${edge}`;
  return `(CASE WHEN ${at} = 0 THEN 0 WHEN ${before} AND ${after} THEN 1 ELSE h.v GLOB ${params.add(`*${NOT_WORD}${word}${NOT_WORD}*`)} END)`;
}

/** FTS5 string literal: double quotes, with inner quotes doubled; the tokenizer then sees exactly the term. */
const ftsQuote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The three-character windows of a string (by code point), as FTS5 trigram terms. */
function trigramTerms(text: string): IndexQuery {
  const chars = Array.from(text);
  if (chars.length < 3) return true;
  return allOf(chars.slice(0, -2).map((_, i) => term(chars.slice(i, i + 3).join(''))));
}

/** An index query as the FTS5 table, field path and MATCH text it is run with. */
function listQuery(field: FieldRef, space: IndexSpace, query: IndexQuery) {
  return {
    table: space === 'words' ? RECORD_WORDS_TABLE : RECORD_TEXT_TABLE,
    path: indexPath(field),
    match: renderIndexQuery(query, ftsQuote, ' AND ', ' OR '),
  };
}

/**
 * The SQLite dialect: json1 functions over `data` TEXT; FTS5 tables hold each field's text per
 * record (rowid = path id << 36 | record seq), so a field's rows are one rowid range.
 */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  table: RECORD_TABLE,
  rowRef: 'r.seq',
  prefiltersEquality: true,
  fence: ' LIMIT -1',
  windowAsSubquery: false,

  tupleId: 'r.seq',

  candidateRow() {
    // CROSS JOIN keeps the candidates outer, in their order: one rowid lookup each, as they are reached.
    return `CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = n.tid`;
  },

  indexListed(field, space, query, { lists }) {
    return typeof query !== 'boolean' && Array.isArray(lists?.found.get(listKey(listQuery(field, space, query))));
  },

  lookupRow() {
    // CROSS JOIN keeps the planned rows outer (SQLite never reorders it): one rowid lookup each.
    return `CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = q.ref`;
  },

  sortKeysRef: 's.seq',

  sortKeysRecord() {
    // CROSS JOIN keeps the keys outer: rows come in index order, one rowid lookup each.
    return `CROSS JOIN ${RECORD_TABLE} AS r ON r.seq = s.seq`;
  },

  compare(field, op, value, { params }) {
    if (field.valueType) return sqliteTest(field, params, (v) => `(${sqliteTyped(field, v)} ${OPS[op]} ${params.add(value)})`);
    return sqliteTest(field, params, (v) => {
      if (typeof value === 'boolean') return `${v.type} = ${value ? "'true'" : "'false'"}`;
      const types = typeof value === 'string' ? `${v.type} = 'text'` : `${v.type} IN ('integer', 'real')`;
      return `(${types} AND ${v.value} ${OPS[op]} ${params.add(value)})`;
    });
  },

  anyEqual(field, values, { params }) {
    if (field.valueType) {
      return sqliteTest(field, params, (v) => `(${sqliteTyped(field, v)} IN (SELECT value FROM json_each(${params.add(JSON.stringify(values))})))`);
    }
    const strings = values.filter((value) => typeof value === 'string');
    const numbers = values.filter((value) => typeof value === 'number');
    // json_each() yields each element of one bound JSON array as an SQL value: text, integer or real.
    const among = (list: readonly unknown[]) => `(SELECT value FROM json_each(${params.add(JSON.stringify(list))}))`;
    return sqliteTest(field, params, (v) => {
      const tests: string[] = [];
      if (strings.length > 0) tests.push(`(${v.type} = 'text' AND ${v.value} IN ${among(strings)})`);
      if (numbers.length > 0) tests.push(`(${v.type} IN ('integer', 'real') AND ${v.value} IN ${among(numbers)})`);
      if (values.includes(true)) tests.push(`${v.type} = 'true'`);
      if (values.includes(false)) tests.push(`${v.type} = 'false'`);
      return `(${tests.join(' OR ')})`;
    });
  },

  isNull(field, { params }) {
    return `coalesce(${sqliteSingle(field, params).type}, 'null') = 'null'`;
  },

  textCount(node, { params, absent }, gate) {
    if (node.op === 'like') {
      const pattern = params.add(likeSqlPattern(node.text));
      return sqliteBest(node.field, params, (v) => `CASE WHEN ${v.type} = 'text' AND lower(${v.value}) LIKE ${pattern} ESCAPE '\\' THEN 1 ELSE 0 END`);
    }
    if (node.op === 'fuzzy') {
      // The padded value is computed once per value, in a one-row subquery, then searched per trigram.
      const found = (gram: string) => `instr(h.v, ${params.add(gram)}) > 0`;
      // Trigrams no record holds add nothing in a read that knows them (a levels read); with every one absent, the count is 0.
      const sum =
        heldGrams(node, absent)
          .map((gram) => `(${found(gram)})`)
          .join(' + ') || '0';
      // CASE tests its condition with jumps: the gate stops at its first group with no trigram found.
      const count = gate ? `CASE WHEN ${gate.map((group) => `(${group.map(found).join(' OR ')})`).join(' AND ')} THEN ${sum} ELSE 0 END` : sum;
      return sqliteBest(
        node.field,
        params,
        (v) => `CASE WHEN ${v.type} = 'text' THEN (SELECT ${count} FROM (SELECT ' ' || lower(${v.value}) || ' ' AS v) AS h) ELSE 0 END`,
      );
    }
    const edge = params.add(NOT_WORD);
    const found = keywordWords(node.text).map((word) => keywordWordFound(word, edge, params));
    return `coalesce((SELECT ${found.join(' + ')} FROM (SELECT ${sqliteFoldedText(node.field, params)} AS v) AS h), 0)`;
  },

  indexWord(_field, word) {
    return term(word);
  },

  indexGram(_field, gram) {
    return term(gram);
  },

  indexText(_field, text, start, end) {
    return trigramTerms(`${start ? ' ' : ''}${text}${end ? ' ' : ''}`);
  },

  indexFilter(field, space, query, { params, scope, probe, lists, amongCandidates }) {
    if (typeof query === 'boolean') return query ? '1' : '0';
    // Rows tested in id order need no candidates when they are narrowed by another index already
    // (CompileContext.amongCandidates), nor when there are many: the exact test that follows decides.
    // The former are not even read ahead.
    if (probe && amongCandidates) return '1';
    const list = listQuery(field, space, query);
    const key = listKey(list);
    const found = lists && foundList(lists, key);
    if (found === undefined) lists?.wanted.set(key, list);
    if (probe && found === 'many') return '1';
    const candidates = Array.isArray(found) ? `SELECT value FROM json_each(${params.add(JSON.stringify(found))})` : candidatesSql(list, scope, params);
    // Unary + keeps the planner from starting at the candidates (a rowid lookup each, then a sort).
    return `${probe ? '+' : ''}r.seq IN (${candidates})`;
  },

  boundList(field, space, query, { lists }) {
    if (typeof query === 'boolean') return null;
    const found = lists?.found.get(listKey(listQuery(field, space, query)));
    return Array.isArray(found) ? found : null;
  },

  levelList(field, space, query, { lists }, readFor) {
    if (typeof query === 'boolean' || !lists?.version || lists.levelMost <= 0) return undefined;
    const list = listQuery(field, space, query);
    const key = listKey(list);
    const keptAs = [lists.scope, lists.levelMost, lists.levelBalanced, key, lists.version] as const;
    const found = lists.levels.get(key) ?? (lists.db && keptLevelList(lists.db, ...keptAs));
    if (found && found !== 'seen') lists.levels.set(key, found);
    // A page inside the level: the first at this data version is noted, the next reads the list (sqlite-level-lists.ts levelSeen).
    else if (readFor !== undefined && lists.db && !found) levelSeen(lists.db, ...keptAs);
    else if (readFor !== undefined) lists.levelWanted.set(key, { key, candidates: (params) => candidatesSql(list, lists.scope, params), need: readFor });
    return found && found !== 'many' && found !== 'seen' ? found : undefined;
  },

  indexMayHold(field, space, query, { params, scope }) {
    if (typeof query === 'boolean') return query ? '1' : '0';
    return `EXISTS (${candidatesSql(listQuery(field, space, query), scope, params)} LIMIT 1)`;
  },

  indexHoldsEveryRow() {
    // The triggers index every row as it is written (engine/store/record-table.ts).
    return '1';
  },

  sortKey(field, { params }) {
    const v = sqliteSingle(field, params);
    if (field.valueType) {
      // Numbers (strict decimal strings, instants) in the number slot; anything else sorts like a missing value.
      const n = sqliteTyped(field, v);
      return [`CASE WHEN ${n} IS NULL THEN 2 ELSE 0 END`, `coalesce(${n}, 0)`, `''`];
    }
    return [
      `CASE ${v.type} WHEN 'integer' THEN 0 WHEN 'real' THEN 0 WHEN 'true' THEN 0 WHEN 'false' THEN 0 WHEN 'text' THEN 1 ELSE 2 END`,
      `CASE ${v.type} WHEN 'integer' THEN ${v.value} WHEN 'real' THEN ${v.value} WHEN 'true' THEN 1 ELSE 0 END`,
      `CASE ${v.type} WHEN 'text' THEN ${v.value} ELSE '' END`,
    ];
  },

  keyParam(_slot, value, { params }) {
    return params.add(value);
  },

  keyColumn(_slot, column) {
    return column;
  },

  share(count, of) {
    return `((${count}) * 1.0 / ${of})`;
  },
};
