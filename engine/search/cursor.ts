import { createHash } from 'node:crypto';
import { isStorableText } from '../store/index.js';
import { SEARCH_LIMITS } from './limits.js';
import { isPlainObject } from './problems.js';
import type { CursorValues, FieldRef, FilterNode, SortKey } from './types.js';

/** What one position of a keyset holds: a sort key's type rank, number, string, the score, or the id. */
export type KeySlot = 'rank' | 'number' | 'string' | 'score' | 'id';

/**
 * The keyset columns of a query, in ORDER BY order. Each sort field is three columns (type rank,
 * numeric value, string value) so that mixed and missing values still order totally and the same
 * way in SQLite and PostgreSQL; the score is a column only when it is the order (no explicit sort
 * and some text operator); the id always ends the key and makes it unique.
 */
export function keySlots(sort: readonly SortKey[], scored: boolean): KeySlot[] {
  const slots: KeySlot[] = [];
  for (let i = 0; i < sort.length; i++) slots.push('rank', 'number', 'string');
  if (sort.length === 0 && scored) slots.push('score');
  slots.push('id');
  return slots;
}

/**
 * A short hash of the filter and sort: cursors carry it, so a cursor handed to a different query
 * (whose keyset would mean something else) is refused instead of silently skipping records.
 */
export function hashQuery(filter: FilterNode | null, sort: readonly SortKey[]): string {
  const canonical = JSON.stringify({ filter: filter && canonicalNode(filter), sort: sort.map((key) => [fieldKey(key.field), key.direction]) });
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/** The path, with its value type when typed: a cursor of `"7800"` read as text must not page a numeric order. */
const fieldKey = (field: FieldRef) => (field.valueType ? `${field.path}:${field.valueType}` : field.path);

function canonicalNode(node: FilterNode): unknown {
  switch (node.op) {
    case 'and':
    case 'or':
      return [node.op, node.nodes.map(canonicalNode)];
    case 'not':
      return [node.op, canonicalNode(node.node)];
    case 'in':
      return [node.op, fieldKey(node.field), node.values];
    case 'like':
    case 'fuzzy':
    case 'keyword':
      return [node.op, fieldKey(node.field), node.text];
    default:
      return [node.op, fieldKey(node.field), node.value];
  }
}

/** The opaque cursor: base64url of `{"h": queryHash, "k": [key values of the last row]}`. */
export function encodeCursor(queryHash: string, values: CursorValues): string {
  return Buffer.from(JSON.stringify({ h: queryHash, k: values }), 'utf8').toString('base64url');
}

/** Decodes and checks a cursor against the query it is used with; returns its key values or the problem. */
export function decodeCursor(cursor: string, queryHash: string, slots: readonly KeySlot[]): CursorValues | string {
  if (cursor.length > SEARCH_LIMITS.maxCursorLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return 'is not a cursor returned by search';
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return 'is not a cursor returned by search';
  }
  if (!isPlainObject(decoded) || typeof decoded.h !== 'string' || !Array.isArray(decoded.k)) return 'is not a cursor returned by search';
  if (decoded.h !== queryHash) return 'was issued for a different query (filter or sort changed); start again without a cursor';
  const values = decoded.k as unknown[];
  const fits =
    values.length === slots.length &&
    slots.every((slot, i) => {
      const value = values[i];
      if (slot === 'rank') return value === 0 || value === 1 || value === 2;
      if (slot === 'number' || slot === 'score') return typeof value === 'number' && Number.isFinite(value);
      // Cursors are not signed: a hand-made one must not carry text the database refuses (U+0000).
      return typeof value === 'string' && isStorableText(value);
    });
  return fits ? (values as CursorValues) : 'is not a cursor returned by search';
}
