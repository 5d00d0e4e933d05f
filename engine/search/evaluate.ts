import { scoringNodes, type TextNode } from './scoring-nodes.js';
import { compareCodePoints, FUZZY_MIN_SIMILARITY, fuzzyGrams, fuzzyScore, keywordScore, keywordWords, likeMatches } from './text-match.js';
import { strictInstantOf } from '../store/index.js';
import { strictNumberOf } from '../store/index.js';
import type { FieldRef, FilterNode, ScalarValue } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows object keys only (never array indexes); undefined when any step is missing. */
function walk(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/** The values a comparison looks at: the one value at the path, or (array fields) every element's. */
function candidates(data: Record<string, unknown>, field: FieldRef): unknown[] {
  // A typed path compares by numeric value or instant; a value without one matches no comparison.
  if (field.valueType === 'number') return rawCandidates(data, field).map((value) => strictNumberOf(value) ?? undefined);
  if (field.valueType === 'date-time') return rawCandidates(data, field).map((value) => strictInstantOf(value) ?? undefined);
  return rawCandidates(data, field);
}

/** The values at the path as stored. */
function rawCandidates(data: Record<string, unknown>, field: FieldRef): unknown[] {
  if (!field.elements) return [walk(data, [field.top, ...field.sub])];
  const array = data[field.top];
  if (!Array.isArray(array) || !Object.hasOwn(data, field.top)) return [];
  const values: unknown[] = [];
  for (const element of array) {
    const value = field.sub.length === 0 ? element : walk(element, field.sub);
    if (value !== undefined) values.push(value);
  }
  return values;
}

function equals(actual: unknown, expected: Exclude<ScalarValue, null>): boolean {
  return typeof actual === typeof expected && actual === expected;
}

function ordered(actual: unknown, op: 'gt' | 'gte' | 'lt' | 'lte', bound: string | number | boolean): boolean {
  let order: number;
  if (typeof bound === 'string' && typeof actual === 'string') order = compareCodePoints(actual, bound);
  else if (typeof bound === 'number' && typeof actual === 'number') order = actual < bound ? -1 : actual > bound ? 1 : 0;
  else return false;
  return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
}

/**
 * Relevance of a text node for a record, 0..1: `like` and `fuzzy` judge each value (each element of
 * an array field) and keep the best; `keyword` counts the words found in any of the values.
 */
function relevance(node: TextNode, data: Record<string, unknown>): number {
  const values = rawCandidates(data, node.field).filter((value): value is string => typeof value === 'string');
  if (values.length === 0) return 0;
  if (node.op === 'keyword') return keywordScore(values, keywordWords(node.text));
  if (node.op === 'like') return values.some((value) => likeMatches(value, node.text)) ? 1 : 0;
  const grams = fuzzyGrams(node.text);
  return Math.max(...values.map((value) => fuzzyScore(value, grams)));
}

/** Whether a text node matches: like = some value matches, fuzzy = some value is similar enough, keyword = some word is found. */
function textMatches(node: TextNode, data: Record<string, unknown>): boolean {
  const score = relevance(node, data);
  return node.op === 'like' ? score === 1 : node.op === 'fuzzy' ? score >= FUZZY_MIN_SIMILARITY : score > 0;
}

/**
 * The reference meaning of a filter, in plain TypeScript: whether one record (`data`) matches.
 * The SQL of both dialects must select exactly the records this accepts; the property test holds
 * them to it. Without a store, it also lets small in-memory collections be searched.
 */
export function matchesFilter(node: FilterNode, data: Record<string, unknown>): boolean {
  switch (node.op) {
    case 'and':
      return node.nodes.every((child) => matchesFilter(child, data));
    case 'or':
      return node.nodes.some((child) => matchesFilter(child, data));
    case 'not':
      return !matchesFilter(node.node, data);
    case 'eq': {
      const { value } = node;
      if (value === null) return !node.field.elements && (rawCandidates(data, node.field)[0] ?? null) === null;
      return candidates(data, node.field).some((actual) => equals(actual, value));
    }
    case 'neq':
      return !matchesFilter({ op: 'eq', field: node.field, value: node.value }, data);
    case 'in':
      return node.values.some((value) => matchesFilter({ op: 'eq', field: node.field, value }, data));
    case 'like':
    case 'fuzzy':
    case 'keyword':
      return textMatches(node, data);
    default: {
      const { op, value } = node;
      return value !== null && candidates(data, node.field).some((actual) => ordered(actual, op, value));
    }
  }
}

/** The `score` of a record: mean relevance of the text nodes outside any `not`, 1 without any. */
export function scoreRecord(filter: FilterNode | null, data: Record<string, unknown>): number {
  const nodes = scoringNodes(filter);
  if (nodes.length === 0) return 1;
  const scores = nodes.map((node) => relevance(node, data));
  return scores.length === 1 ? (scores[0] as number) : scores.reduce((a, b) => a + b, 0) / scores.length;
}
