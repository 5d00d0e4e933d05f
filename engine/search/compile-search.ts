import { keySlots, type KeySlot } from './cursor.js';
import { postgresDialect } from './postgres-dialect.js';
import { scoringNodes, type TextNode } from './scoring-nodes.js';
import type { SqlDialect } from './sql-dialect.js';
import { SqlParams } from './sql-params.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { FilterNode, SearchDialect, SearchRequest, SearchScope } from './types.js';

/**
 * Compiled SQL. Columns: `id`, `data`, `score`, then `k0..kN` (the keyset of the row, in `slots`
 * order: the next cursor is built from the last row's). One row more than `limit` is asked for, so
 * the runner knows whether a next page exists.
 */
export interface CompiledSearch {
  sql: string;
  params: unknown[];
  slots: KeySlot[];
}

const DIALECTS: Record<SearchDialect, SqlDialect> = { sqlite: sqliteDialect, postgres: postgresDialect };

/**
 * Turns a validated request into one parameterized SELECT for the dialect, restricted to one
 * connector's entity. Values and field paths are always bound parameters; only SQL the compiler
 * writes itself reaches the text. Order: explicit sort keys (then id), or score desc then id.
 */
export function compileSearch(request: SearchRequest, dialect: SearchDialect, scope: SearchScope): CompiledSearch {
  const d = DIALECTS[dialect];
  const params = new SqlParams();
  const scoring = scoringNodes(request.filter);
  const scored = scoring.length > 0;
  const slots = keySlots(request.sort, scored);

  const where = [`r.connector_id = ${params.add(scope.connectorId)}`, `r.entity = ${params.add(scope.entity)}`];
  if (request.filter) where.push(compileNode(request.filter, d, params));

  const score = scored ? meanScore(scoring, d, params) : '1';
  const keys: string[] = [];
  for (const sort of request.sort) keys.push(...d.sortKey(sort.field, params));
  if (request.sort.length === 0 && scored) keys.push('score');
  keys.push('id');

  const inner = [
    `SELECT r.id AS id, r.data AS data, ${dialect === 'postgres' ? `(${score})::float8` : `(${score})`} AS score`,
    ...keys.slice(0, -1).map((expression, i) => (expression === 'score' ? '' : `, ${expression} AS k${i}`)),
    `, r.id AS k${keys.length - 1}`,
    ` FROM ${d.table} AS r WHERE ${where.join(' AND ')}`,
  ].join('');

  const directions = slots.map((slot, i) => {
    if (slot === 'rank' || slot === 'id') return 'asc';
    if (slot === 'score') return 'desc';
    return (request.sort[Math.floor(i / 3)] as SearchRequest['sort'][number]).direction;
  });
  // The score is computed once, in the inner query; its key column is that value.
  const columns = slots.map((slot, i) => d.keyColumn(slot, slot === 'score' ? 'q.score' : `q.k${i}`));
  const order = columns.map((column, i) => `${column} ${directions[i] === 'asc' ? 'ASC' : 'DESC'}`).join(', ');

  let keyset = '';
  if (request.cursor) {
    const values = request.cursor;
    // (c0 > v0) OR (c0 = v0 AND ((c1 > v1) OR (c1 = v1 AND ...))), nested so its size stays linear.
    keyset = slots.reduceRight((rest, slot, i) => {
      const value = d.keyParam(slot, values[i] as string | number, params);
      const after = `${columns[i]} ${directions[i] === 'asc' ? '>' : '<'} ${value}`;
      return rest ? `(${after} OR (${columns[i]} = ${value} AND ${rest}))` : `(${after})`;
    }, '');
  }

  const sql = `SELECT q.id, q.data, q.score, ${slots.map((slot, i) => `${slot === 'score' ? 'q.score' : `q.k${i}`} AS k${i}`).join(', ')} FROM (${inner}) AS q${
    keyset ? ` WHERE ${keyset}` : ''
  } ORDER BY ${order} LIMIT ${params.add(request.limit + 1)}`;
  return { ...params.finish(sql, dialect), slots };
}

function meanScore(nodes: TextNode[], d: SqlDialect, params: SqlParams): string {
  const parts = nodes.map((node) => d.textScore(node, params));
  return parts.length === 1 ? (parts[0] as string) : `((${parts.join(' + ')}) / ${parts.length}.0)`;
}

function compileNode(node: FilterNode, d: SqlDialect, params: SqlParams): string {
  switch (node.op) {
    case 'and':
    case 'or':
      return `(${node.nodes.map((child) => compileNode(child, d, params)).join(node.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `(NOT ${compileNode(node.node, d, params)})`;
    case 'eq': {
      if (node.value === null) return d.isNull(node.field, params);
      const exact = d.compare(node.field, 'eq', node.value, params);
      const prefilter = typeof node.value === 'string' ? d.equalityPrefilter(node.value, params) : null;
      return prefilter ? `(${prefilter} AND ${exact})` : exact;
    }
    case 'neq':
      return `(NOT ${compileNode({ op: 'eq', field: node.field, value: node.value }, d, params)})`;
    case 'in':
      return `(${node.values.map((value) => compileNode({ op: 'eq', field: node.field, value }, d, params)).join(' OR ')})`;
    case 'like':
    case 'fuzzy':
    case 'keyword': {
      const exact = d.textMatch(node, params);
      const prefilter = d.textPrefilter(node, params);
      return prefilter ? `(${prefilter} AND ${exact})` : exact;
    }
    default:
      if (node.value === null) throw new TypeError(`"${node.op}" cannot compare with null`);
      return d.compare(node.field, node.op, node.value, params);
  }
}
