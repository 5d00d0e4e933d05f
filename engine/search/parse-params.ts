import { decodeCursor, hashQuery, keySlots } from './cursor.js';
import { resolveFieldPath } from './field-path.js';
import { SEARCH_LIMITS } from './limits.js';
import { parseFilter } from './parse-filter.js';
import { parseSort } from './parse-sort.js';
import { describeValue, isPlainObject, pointerSegment, Problems } from './problems.js';
import { scoringNodes } from './scoring-nodes.js';
import type { FieldType, SearchableFields, SearchRequest, ValueTypes } from './types.js';

const PARAM_KEYS = ['query', 'limit', 'cursor', 'fields'];
const QUERY_KEYS = ['filter', 'sort'];
const FIELD_TYPES = new Set<FieldType>(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/**
 * Validates the params of the `search` action (SPEC.md "Common search action parameters", DESIGN.md
 * §7 grammar) against an entity's searchable fields. Every problem becomes one `{path, message}`
 * of a single InvalidParamsError, so the caller sees all of them at once. `valueTypes` (the sync
 * plan's `value_types`) makes typed paths compare and sort by value; `sortable` (the sync plan's,
 * else defaultSortable) names the paths whose sort keys are kept and indexed.
 */
export function parseSearchParams(
  params: unknown,
  fields: Record<string, FieldType>,
  valueTypes: ValueTypes = {},
  sortable: readonly string[] = defaultSortable(fields, valueTypes),
): SearchRequest {
  checkSearchable(fields);
  const searchable: SearchableFields = Object.freeze({ ...fields });
  const problems = new Problems();
  if (!isPlainObject(params)) {
    problems.add('/', `params must be an object with "query", got ${describeValue(params)}`);
    problems.throwIfAny();
  }
  const raw = params as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!PARAM_KEYS.includes(key)) problems.add(`/${pointerSegment(key)}`, `unknown parameter; expected ${PARAM_KEYS.join(', ')}`);
  }

  const query = raw.query;
  let filter = null;
  let sort: SearchRequest['sort'] = [];
  if (!isPlainObject(query)) {
    problems.add('/query', `is required: an object with optional "filter" and "sort", got ${describeValue(query)}`);
  } else {
    for (const key of Object.keys(query)) {
      if (!QUERY_KEYS.includes(key)) problems.add(`/query/${pointerSegment(key)}`, `unknown key; expected ${QUERY_KEYS.join(', ')}`);
    }
    if (query.filter !== undefined && query.filter !== null) filter = parseFilter(query.filter, '/query/filter', searchable, problems, valueTypes);
    sort = parseSort(query.sort, '/query/sort', searchable, problems, valueTypes, new Set(sortable));
  }

  let limit: number = SEARCH_LIMITS.defaultLimit;
  if (raw.limit !== undefined) {
    if (Number.isInteger(raw.limit) && (raw.limit as number) >= 1 && (raw.limit as number) <= SEARCH_LIMITS.maxLimit) limit = raw.limit as number;
    else problems.add('/limit', `must be an integer from 1 to ${SEARCH_LIMITS.maxLimit}, got ${describeValue(raw.limit)}`);
  }

  let projection: string[] | null = null;
  if (raw.fields !== undefined && raw.fields !== null) {
    if (!Array.isArray(raw.fields) || raw.fields.length === 0 || raw.fields.length > SEARCH_LIMITS.maxFields) {
      problems.add('/fields', `must be an array of 1 to ${SEARCH_LIMITS.maxFields} field paths, got ${describeValue(raw.fields)}`);
    } else {
      projection = [];
      raw.fields.forEach((path, i) => {
        const resolved = typeof path === 'string' ? resolveFieldPath(path, searchable) : `must be a field path string, got ${describeValue(path)}`;
        if (typeof resolved === 'string') problems.add(`/fields/${i}`, resolved);
        else if (!projection?.includes(resolved.path)) projection?.push(resolved.path);
      });
    }
  }

  const queryHash = hashQuery(filter, sort);
  let cursor = null;
  if (raw.cursor !== undefined && raw.cursor !== null && problems.count === 0) {
    const decoded =
      typeof raw.cursor === 'string'
        ? decodeCursor(raw.cursor, queryHash, keySlots(sort, scoringNodes(filter).length > 0))
        : `must be the next_cursor string of a previous page, got ${describeValue(raw.cursor)}`;
    if (typeof decoded === 'string') problems.add('/cursor', decoded);
    else cursor = decoded;
  }
  problems.throwIfAny();
  return { filter, sort, limit, cursor, fields: projection, queryHash, searchable, sortable: new Set(sortable) };
}

/**
 * The paths sortable when a sync plan declares none: its top-level string, integer, number and
 * boolean fields and its typed paths (`value_types`), the values a record has one of. Why all of
 * them: keys are only kept once a path is sorted by (or a range on it is searched, range-keys.ts), so an unused one costs nothing.
 */
export function defaultSortable(fields: Record<string, FieldType>, valueTypes: ValueTypes = {}): string[] {
  const scalars = Object.entries(fields).flatMap(([name, type]) => (type === 'object' || type === 'array' ? [] : [name]));
  return [...new Set([...scalars, ...Object.keys(valueTypes)])];
}

/** The searchable-field list comes from a manifest; a wrong one is a programming error, not a caller's. */
function checkSearchable(fields: Record<string, FieldType>): void {
  if (!isPlainObject(fields) || Object.keys(fields).length === 0) throw new TypeError('searchable fields must be a non-empty object');
  for (const [name, type] of Object.entries(fields)) {
    if (!FIELD_TYPES.has(type)) throw new TypeError(`searchable field "${name}" has unknown type ${describeValue(type)}`);
  }
}
