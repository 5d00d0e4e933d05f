import { textIndexTerms } from './fts-terms.js';
import { RECORD_TABLE, RECORD_TEXT_TABLE } from '../store/record-table.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlParams } from './sql-params.js';
import type { TextNode } from './scoring-nodes.js';
import { FUZZY_MIN_SIMILARITY, fuzzyGrams, KEYWORD_SEPARATORS, keywordWords, likeSqlPattern } from './text-match.js';
import type { FieldRef } from './types.js';

/** A JSON value in SQLite: its json_type() name and its SQL value. */
interface Value {
  type: string;
  value: string;
}

const OPS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** `$."a"."b"`: segments are validated to a safe alphabet, and the path itself is bound. */
function jsonPath(segments: readonly string[]): string {
  return `$${segments.map((segment) => `."${segment}"`).join('')}`;
}

const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The folded value with every keyword separator turned into a space (SQLite has no translate()). */
function separatorsToSpaces(expression: string): string {
  let out = `lower(${expression})`;
  for (const char of KEYWORD_SEPARATORS) if (char !== ' ') out = `replace(${out}, ${sqlString(char)}, ' ')`;
  return out;
}

/** Rows whose trigram index entry holds all (or any) of the substrings: a superset of the rows a text test can accept. */
function ftsPrefilter(terms: readonly string[], mode: 'all' | 'any', params: SqlParams): string {
  const query = terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(mode === 'all' ? ' AND ' : ' OR ');
  return `r.seq IN (SELECT rowid FROM ${RECORD_TEXT_TABLE} WHERE ${RECORD_TEXT_TABLE} MATCH ${params.add(query)})`;
}

let aliasCounter = 0;

/** `FROM json_each(...) AS eN WHERE <it is an array>` over an array field, and the element (or its sub-path) as a Value. */
function elements(field: FieldRef, params: SqlParams): { from: string; value: Value } {
  const alias = `e${++aliasCounter}`;
  const path = params.add(jsonPath([field.top]));
  const from = `FROM json_each(r.data, ${path}) AS ${alias} WHERE json_type(r.data, ${path}) = 'array'`;
  if (field.sub.length === 0) return { from, value: { type: `${alias}.type`, value: `${alias}.atom` } };
  const sub = params.add(jsonPath(field.sub));
  const ifObject = (expression: string) => `CASE WHEN ${alias}.type = 'object' THEN ${expression} END`;
  return { from, value: { type: ifObject(`json_type(${alias}.value, ${sub})`), value: ifObject(`json_extract(${alias}.value, ${sub})`) } };
}

function single(field: FieldRef, params: SqlParams): Value {
  const path = params.add(jsonPath([field.top, ...field.sub]));
  return { type: `json_type(r.data, ${path})`, value: `json_extract(r.data, ${path})` };
}

/** Applies a value test to the field: directly, or as "any element" for array fields. */
function test(field: FieldRef, params: SqlParams, predicate: (value: Value) => string): string {
  if (!field.elements) return `coalesce(${predicate(single(field, params))}, 0)`;
  const { from, value } = elements(field, params);
  return `EXISTS (SELECT 1 ${from} AND coalesce(${predicate(value)}, 0))`;
}

function gramShare(haystack: string, needles: string, count: number): string {
  return `((SELECT count(*) FROM json_each(${needles}) AS g WHERE instr(${haystack}, g.value) > 0) * 1.0 / ${count})`;
}

function relevance(node: TextNode, value: Value, params: SqlParams): string {
  if (node.op === 'like') {
    const pattern = params.add(likeSqlPattern(node.text));
    return `CASE WHEN ${value.type} = 'text' AND lower(${value.value}) LIKE ${pattern} ESCAPE '\\' THEN 1 ELSE 0 END`;
  }
  if (node.op === 'fuzzy') {
    const grams = fuzzyGrams(node.text);
    const share = gramShare(`(' ' || lower(${value.value}) || ' ')`, params.add(JSON.stringify(grams)), grams.length);
    return `CASE WHEN ${value.type} = 'text' THEN ${share} ELSE 0 END`;
  }
  const words = keywordWords(node.text).map((word) => ` ${word} `);
  const share = gramShare(`(' ' || ${separatorsToSpaces(value.value)} || ' ')`, params.add(JSON.stringify(words)), words.length);
  return `CASE WHEN ${value.type} = 'text' THEN ${share} ELSE 0 END`;
}

function matches(node: TextNode, value: Value, params: SqlParams): string {
  const share = relevance(node, value, params);
  if (node.op === 'like') return `(${share}) = 1`;
  return node.op === 'fuzzy' ? `(${share}) >= ${FUZZY_MIN_SIMILARITY}` : `(${share}) > 0`;
}

/** The SQLite dialect: json1 functions over `data` TEXT, FTS5 trigram index as a prefilter. */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  table: RECORD_TABLE,

  compare(field, op, value, params) {
    return test(field, params, (v) => {
      if (typeof value === 'boolean') return `${v.type} = ${value ? "'true'" : "'false'"}`;
      const types = typeof value === 'string' ? `${v.type} = 'text'` : `${v.type} IN ('integer', 'real')`;
      return `(${types} AND ${v.value} ${OPS[op]} ${params.add(value)})`;
    });
  },

  isNull(field, params) {
    return `coalesce(${single(field, params).type}, 'null') = 'null'`;
  },

  textMatch(node, params) {
    return test(node.field, params, (v) => matches(node, v, params));
  },

  textScore(node, params) {
    if (!node.field.elements) return `coalesce(${relevance(node, single(node.field, params), params)}, 0)`;
    const { from, value } = elements(node.field, params);
    return `coalesce((SELECT max(${relevance(node, value, params)}) ${from}), 0)`;
  },

  textPrefilter(node, params) {
    const index = textIndexTerms(node);
    return index ? ftsPrefilter(index.terms, index.mode, params) : null;
  },

  equalityPrefilter(value, params) {
    return Array.from(value).length >= 3 ? ftsPrefilter([` ${value} `], 'all', params) : null;
  },

  sortKey(field, params) {
    const v = single(field, params);
    return [
      `CASE ${v.type} WHEN 'integer' THEN 0 WHEN 'real' THEN 0 WHEN 'true' THEN 0 WHEN 'false' THEN 0 WHEN 'text' THEN 1 ELSE 2 END`,
      `CASE ${v.type} WHEN 'integer' THEN ${v.value} WHEN 'real' THEN ${v.value} WHEN 'true' THEN 1 ELSE 0 END`,
      `CASE ${v.type} WHEN 'text' THEN ${v.value} ELSE '' END`,
    ];
  },

  keyParam(_slot, value, params) {
    return params.add(value);
  },

  keyColumn(_slot, column) {
    return column;
  },
};

