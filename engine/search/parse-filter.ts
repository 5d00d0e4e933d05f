import { isStorableText } from '../store/index.js';
import { fieldKind, resolveFieldPath } from './field-path.js';
import { SEARCH_LIMITS } from './limits.js';
import { describeValue, isPlainObject, pointerSegment, type Problems } from './problems.js';
import { fuzzyGrams, keywordWords } from './text-match.js';
import { typedValue } from './typed-value.js';
import type { ComparisonOp, FieldRef, FilterNode, ScalarValue, SearchableFields, TextOp, ValueTypes } from './types.js';

/** Every filter operator of SPEC.md, in the order error messages list them. */
export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword', 'and', 'or', 'not'] as const;

const COMPARISONS = new Set<string>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte']);
const RANGES = new Set<string>(['gt', 'gte', 'lt', 'lte']);
const TEXT_OPS = new Set<string>(['like', 'fuzzy', 'keyword']);

/**
 * Why a string with U+0000 or a lone surrogate is refused rather than searched for: PostgreSQL
 * text cannot hold U+0000 and neither store keeps a lone surrogate (see isStorableText), so no
 * stored value can equal or contain it, and the two dialects would fail or differ.
 */
const UNSTORABLE = 'strings may not hold U+0000 or an unpaired surrogate (no stored text can)';

interface Walk {
  searchable: SearchableFields;
  valueTypes: ValueTypes;
  problems: Problems;
  nodes: number;
  tooMany: boolean;
}

/**
 * Validates a `query.filter` tree (DESIGN.md §7 grammar) into a FilterNode, adding a located
 * problem for everything wrong and returning null when the tree is unusable. Node count and depth
 * are bounded before anything recurses, so hostile input stays cheap.
 */
export function parseFilter(raw: unknown, path: string, searchable: SearchableFields, problems: Problems, valueTypes: ValueTypes = {}): FilterNode | null {
  const walk: Walk = { searchable, valueTypes, problems, nodes: 0, tooMany: false };
  return parseNode(raw, path, 1, walk);
}

function parseNode(raw: unknown, path: string, depth: number, walk: Walk): FilterNode | null {
  if (walk.tooMany) return null;
  if (++walk.nodes > SEARCH_LIMITS.maxNodes) {
    walk.tooMany = true;
    walk.problems.add(path, `the filter has more than ${SEARCH_LIMITS.maxNodes} nodes`);
    return null;
  }
  if (depth > SEARCH_LIMITS.maxDepth) {
    walk.problems.add(path, `the filter nests deeper than ${SEARCH_LIMITS.maxDepth} levels`);
    return null;
  }
  const keys = isPlainObject(raw) ? Object.keys(raw) : [];
  if (!isPlainObject(raw) || keys.length !== 1) {
    walk.problems.add(path, `must be an object with exactly one operator key (${FILTER_OPERATORS.join(', ')}), got ${describeValue(raw)}`);
    return null;
  }
  const op = keys[0] as string;
  const operand = raw[op];
  const here = `${path}/${pointerSegment(op)}`;
  if (op === 'and' || op === 'or') {
    if (!Array.isArray(operand) || operand.length === 0) {
      walk.problems.add(here, `must be a non-empty array of filter nodes, got ${describeValue(operand)}`);
      return null;
    }
    const nodes: FilterNode[] = [];
    for (let i = 0; i < operand.length && !walk.tooMany; i++) {
      const child = parseNode(operand[i], `${here}/${i}`, depth + 1, walk);
      if (child) nodes.push(child);
    }
    return nodes.length === operand.length ? { op, nodes } : null;
  }
  if (op === 'not') {
    const node = parseNode(operand, here, depth + 1, walk);
    return node ? { op, node } : null;
  }
  if (!COMPARISONS.has(op) && op !== 'in' && !TEXT_OPS.has(op)) {
    walk.problems.add(here, `unknown operator "${op.slice(0, 40)}"; expected one of ${FILTER_OPERATORS.join(', ')}`);
    return null;
  }
  const fieldKeys = isPlainObject(operand) ? Object.keys(operand) : [];
  if (!isPlainObject(operand) || fieldKeys.length !== 1) {
    walk.problems.add(here, `must be an object naming exactly one field, e.g. {"${op}": {"<field>": <value>}}, got ${describeValue(operand)}`);
    return null;
  }
  const fieldPath = fieldKeys[0] as string;
  const at = `${here}/${pointerSegment(fieldPath)}`;
  const field = resolveFieldPath(fieldPath, walk.searchable, walk.valueTypes);
  if (typeof field === 'string') {
    walk.problems.add(at, field);
    return null;
  }
  const value = operand[fieldPath];
  if (op === 'in') return parseIn(field, value, at, walk);
  if (TEXT_OPS.has(op)) return parseText(op as TextOp, field, value, at, walk);
  const typed = typedValue(field, value);
  const problem = typed.problem ?? scalarProblem(op as ComparisonOp, field, typed.value);
  if (problem) {
    walk.problems.add(at, problem);
    return null;
  }
  return { op: op as ComparisonOp, field, value: typed.value as ScalarValue };
}

function parseIn(field: FieldRef, value: unknown, at: string, walk: Walk): FilterNode | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > SEARCH_LIMITS.maxInValues) {
    walk.problems.add(at, `"in" needs an array of 1 to ${SEARCH_LIMITS.maxInValues} values, got ${describeValue(value)}`);
    return null;
  }
  let ok = true;
  const values = value.map((item, i) => {
    const typed = typedValue(field, item);
    const problem = typed.problem ?? scalarProblem('eq', field, typed.value);
    if (problem) {
      walk.problems.add(`${at}/${i}`, problem);
      ok = false;
    }
    return typed.value;
  });
  return ok ? { op: 'in', field, values: values as ScalarValue[] } : null;
}

function parseText(op: TextOp, field: FieldRef, value: unknown, at: string, walk: Walk): FilterNode | null {
  const kind = fieldKind(field);
  if (kind === 'object' || (kind === 'typed' && field.type !== 'string')) {
    walk.problems.add(at, `"${op}" needs a string field (or a path inside an object or array field); "${field.path}" is ${field.type}`);
    return null;
  }
  const max = op === 'like' ? SEARCH_LIMITS.maxStringLength : SEARCH_LIMITS.maxTextQueryLength;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    walk.problems.add(at, `"${op}" needs a non-empty string of at most ${max} characters, got ${describeValue(value)}`);
    return null;
  }
  if (!isStorableText(value)) {
    walk.problems.add(at, UNSTORABLE);
    return null;
  }
  if (op === 'fuzzy' && fuzzyGrams(value).length === 0) {
    walk.problems.add(at, '"fuzzy" needs at least one word');
    return null;
  }
  if (op === 'keyword') {
    const words = keywordWords(value).length;
    if (words === 0 || words > SEARCH_LIMITS.maxKeywords) {
      walk.problems.add(at, `"keyword" needs 1 to ${SEARCH_LIMITS.maxKeywords} words (letters or digits), got ${words}`);
      return null;
    }
  }
  return { op, field, text: value };
}

/**
 * Why `value` cannot be compared with `field` by `op`, or null when it can: declared scalar fields
 * take their own type (or null for eq/neq/in), paths inside objects take any scalar, array
 * elements any non-null scalar, and whole objects only null.
 */
function scalarProblem(op: ComparisonOp, field: FieldRef, value: unknown): string | null {
  const kind = fieldKind(field);
  const range = RANGES.has(op);
  if (typeof value === 'string' && value.length > SEARCH_LIMITS.maxStringLength) {
    return `strings are limited to ${SEARCH_LIMITS.maxStringLength} characters`;
  }
  if (typeof value === 'string' && !isStorableText(value)) return UNSTORABLE;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'numbers must be finite';
  // A typed path's value was already read by typedValue(): a number (or instant), or null (not for ranges).
  if (field.valueType)
    return value !== null || !range ? null : `"${op}" on "${field.path}" needs a ${field.valueType === 'number' ? 'number' : 'date-time'}, got null`;
  const got = describeValue(value);
  if (kind === 'object') {
    return !range && value === null
      ? null
      : `"${field.path}" is an object field: compare a sub-field (e.g. "${field.path}.<name>") or test it with eq/neq null; got ${got}`;
  }
  if (kind === 'nested' || kind === 'element') {
    if (typeof value === 'string' || typeof value === 'number') return null;
    if (typeof value === 'boolean' && !range) return null;
    if (value === null && !range && kind === 'nested') return null;
    const wanted = range ? 'a string or a number' : kind === 'element' ? 'a string, number or boolean' : 'a string, number, boolean or null';
    return `"${op}" on "${field.path}" needs ${wanted}, got ${got}`;
  }
  if (range && field.type === 'boolean') return `"${op}" cannot order the boolean field "${field.path}"; use eq`;
  if (value === null && !range) return null;
  const fits =
    field.type === 'string'
      ? typeof value === 'string'
      : field.type === 'integer'
        ? Number.isInteger(value)
        : field.type === 'number'
          ? typeof value === 'number'
          : typeof value === 'boolean';
  return fits ? null : `"${field.path}" is a${field.type === 'integer' ? 'n' : ''} ${field.type} field, got ${got}`;
}
