import { textIndexTerms } from './fts-terms.js';
import { RECORD_TABLE } from '../store/record-table.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlParams } from './sql-params.js';
import type { TextNode } from './scoring-nodes.js';
import { FUZZY_MIN_SIMILARITY, fuzzyGrams, KEYWORD_SEPARATORS, keywordWords, likeSqlPattern } from './text-match.js';
import type { FieldRef } from './types.js';

const OPS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** `r.data -> $1 -> $2`: every segment bound as text (`->` with text never indexes into arrays). */
function access(root: string, segments: readonly string[], params: SqlParams): string {
  return segments.reduce((expression, segment) => `(${expression} -> ${params.add(segment)}::text)`, root);
}

let aliasCounter = 0;

/** `FROM jsonb_array_elements(...) AS eN(v)` over an array field (no rows when it is not an array), and the element value. */
function elements(field: FieldRef, params: SqlParams): { from: string; value: string } {
  const alias = `e${++aliasCounter}`;
  const array = access('r.data', [field.top], params);
  const from = `FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${array}) = 'array' THEN ${array} ELSE '[]'::jsonb END) AS ${alias}(v)`;
  return { from, value: access(`${alias}.v`, field.sub, params) };
}

/** Applies a jsonb value test to the field: directly, or as "any element" for array fields. */
function test(field: FieldRef, params: SqlParams, predicate: (value: string) => string): string {
  if (!field.elements) return `coalesce(${predicate(access('r.data', [field.top, ...field.sub], params))}, false)`;
  const { from, value } = elements(field, params);
  return `EXISTS (SELECT 1 ${from} WHERE coalesce(${predicate(value)}, false))`;
}

/** The document `{"top": {"sub": value}}` (or `{"top": [...]}` for arrays) whose containment means equality. */
function containmentDocument(field: FieldRef, value: string | number | boolean): string {
  const inner = field.sub.reduceRight<unknown>((nested, segment) => ({ [segment]: nested }), value);
  return JSON.stringify({ [field.top]: field.elements ? [inner] : inner });
}

const text = (value: string) => `(${value} #>> '{}') COLLATE "C"`;

function share(haystack: string, needles: string[], params: SqlParams): string {
  return `((SELECT count(*) FROM unnest(${params.add(needles)}::text[]) AS g(t) WHERE strpos(${haystack}, g.t) > 0)::float8 / ${needles.length})`;
}

function relevance(node: TextNode, value: string, params: SqlParams): string {
  const isString = `jsonb_typeof(${value}) = 'string'`;
  if (node.op === 'like') {
    return `CASE WHEN ${isString} AND lower(${text(value)}) LIKE ${params.add(likeSqlPattern(node.text))}::text THEN 1::float8 ELSE 0::float8 END`;
  }
  if (node.op === 'fuzzy') {
    return `CASE WHEN ${isString} THEN ${share(`(' ' || lower(${text(value)}) || ' ')`, fuzzyGrams(node.text), params)} ELSE 0::float8 END`;
  }
  const spaced = `(' ' || translate(lower(${text(value)}), ${params.add(KEYWORD_SEPARATORS)}::text, ${params.add(' '.repeat(KEYWORD_SEPARATORS.length))}::text) || ' ')`;
  const words = keywordWords(node.text).map((word) => ` ${word} `);
  return `CASE WHEN ${isString} THEN ${share(spaced, words, params)} ELSE 0::float8 END`;
}

function matches(node: TextNode, value: string, params: SqlParams): string {
  const score = relevance(node, value, params);
  if (node.op === 'like') return `(${score}) = 1`;
  return node.op === 'fuzzy' ? `(${score}) >= ${FUZZY_MIN_SIMILARITY}` : `(${score}) > 0`;
}

const regexEscape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The PostgreSQL dialect: jsonb operators, containment for equality (GIN), pg_trgm as a prefilter. */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  table: RECORD_TABLE,

  compare(field, op, value, params) {
    if (op === 'eq') return `(r.data @> ${params.add(containmentDocument(field, value))}::jsonb)`;
    return test(field, params, (v) =>
      typeof value === 'string'
        ? `(jsonb_typeof(${v}) = 'string' AND ${text(v)} ${OPS[op]} ${params.add(value)}::text)`
        : `(jsonb_typeof(${v}) = 'number' AND ${v} ${OPS[op]} ${params.add(JSON.stringify(value))}::jsonb)`,
    );
  },

  isNull(field, params) {
    return `coalesce(jsonb_typeof(${access('r.data', [field.top, ...field.sub], params)}), 'null') = 'null'`;
  },

  textMatch(node, params) {
    return test(node.field, params, (v) => matches(node, v, params));
  },

  textScore(node, params) {
    if (!node.field.elements) return `coalesce(${relevance(node, access('r.data', [node.field.top, ...node.field.sub], params), params)}, 0::float8)`;
    const { from, value } = elements(node.field, params);
    return `coalesce((SELECT max(${relevance(node, value, params)}) ${from}), 0::float8)`;
  },

  textPrefilter(node, params) {
    const index = textIndexTerms(node);
    if (!index) return null;
    if (node.op === 'like') return `(r.search_text ILIKE ${params.add(`%${likeSqlPattern(node.text)}%`)}::text)`;
    return `(r.search_text ~* ${params.add(index.terms.map(regexEscape).join('|'))}::text)`;
  },

  equalityPrefilter() {
    return null; // containment (`@>`) is served by the GIN jsonb_path_ops index
  },

  sortKey(field, params) {
    const v = access('r.data', [field.top, ...field.sub], params);
    return [
      `(CASE jsonb_typeof(${v}) WHEN 'number' THEN 0 WHEN 'boolean' THEN 0 WHEN 'string' THEN 1 ELSE 2 END)`,
      `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${v})::float8 WHEN 'boolean' THEN (CASE WHEN ${v} = 'true'::jsonb THEN 1 ELSE 0 END)::float8 ELSE 0::float8 END)`,
      `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${v} #>> '{}' ELSE '' END) COLLATE "C"`,
    ];
  },

  keyParam(slot, value, params) {
    const cast = slot === 'rank' ? 'int' : slot === 'number' || slot === 'score' ? 'float8' : 'text';
    return `${params.add(value)}::${cast}`;
  },

  keyColumn(slot, column) {
    return slot === 'string' || slot === 'id' ? `${column} COLLATE "C"` : column;
  },
};
