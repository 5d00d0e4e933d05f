/**
 * The `search` grammar (DESIGN.md §7) as JSON Schema, for the documents generated from manifests
 * (GET /v1/connector-types, the OpenAPI documents): a filter is a recursive schema, one operator
 * per node, so generators type it instead of seeing an open object. parseSearchParams stays the
 * engine's own check; these schemas say the same, except for the node and depth bounds.
 */
import { SEGMENT_CHARACTERS } from './field-path.js';
import { SEARCH_LIMITS } from './limits.js';
import { FILTER_OPERATORS } from './parse-filter.js';
import type { SearchableFields } from './types.js';

type JsonSchema = Record<string, unknown>;
type FilterOperator = (typeof FILTER_OPERATORS)[number];

const SUB_PATH = `(?:\\.[${SEGMENT_CHARACTERS}]{1,${SEARCH_LIMITS.maxSegmentLength}}){MIN,${SEARCH_LIMITS.maxPathSegments - 1}}`;

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `^(?:a|b|(?:c|d)<sub-path>)$`: names alone, or names followed by `min` or more dot segments. */
function pathPattern(alone: string[], nested: string[], min: number): string {
  const choices = [...alone.map(escaped)];
  if (nested.length > 0) choices.push(`(?:${nested.map(escaped).join('|')})${SUB_PATH.replace('MIN', String(min))}`);
  return `^(?:${choices.join('|')})$`;
}

/**
 * The dot paths a filter and `fields` accept (field-path.ts): a searchable name, and below an
 * object or array field up to seven more segments.
 */
export function searchPathPattern(searchable: SearchableFields): string {
  const names = Object.keys(searchable);
  const containers = names.filter((name) => searchable[name] === 'object' || searchable[name] === 'array');
  return pathPattern(names, containers, 1);
}

/** The paths `query.sort` accepts (parse-sort.ts): scalar fields, and paths inside object fields, never arrays. */
function sortPathPattern(searchable: SearchableFields): string {
  const names = Object.keys(searchable);
  const scalars = names.filter((name) => searchable[name] !== 'object' && searchable[name] !== 'array');
  return pathPattern(
    scalars,
    names.filter((name) => searchable[name] === 'object'),
    1,
  );
}

const SCALAR: JsonSchema = { type: ['string', 'number', 'boolean', 'null'], maxLength: SEARCH_LIMITS.maxStringLength };
// Ranges order numbers, strings and typed paths (a number or a decimal string, a date-time or epoch ms); never null or booleans.
const ORDERED: JsonSchema = { type: ['string', 'number'], maxLength: SEARCH_LIMITS.maxStringLength };

function text(maxLength: number): JsonSchema {
  return { type: 'string', minLength: 1, maxLength };
}

/** What one operator maps to: `{field: value}` for comparisons, filters for and/or/not. */
function operands(pattern: string, self: string): Record<FilterOperator, JsonSchema> {
  const field = (value: JsonSchema): JsonSchema => ({
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    propertyNames: { pattern },
    additionalProperties: value,
  });
  const filters: JsonSchema = { type: 'array', minItems: 1, items: { $ref: self } };
  return {
    eq: field(SCALAR),
    neq: field(SCALAR),
    gt: field(ORDERED),
    gte: field(ORDERED),
    lt: field(ORDERED),
    lte: field(ORDERED),
    in: field({ type: 'array', minItems: 1, maxItems: SEARCH_LIMITS.maxInValues, items: SCALAR }),
    like: field(text(SEARCH_LIMITS.maxStringLength)),
    fuzzy: field(text(SEARCH_LIMITS.maxTextQueryLength)),
    keyword: field(text(SEARCH_LIMITS.maxTextQueryLength)),
    and: filters,
    or: filters,
    not: { $ref: self },
  };
}

/**
 * One filter node of an entity: an object with exactly one operator key, each operator a variant
 * of a oneOf (so every filter matches exactly one), and/or/not referring back to `self` (the
 * location the caller puts this schema at, e.g. `#/$defs/Filter`).
 */
export function searchFilterSchema(searchable: SearchableFields, self: string): JsonSchema {
  const byOperator = operands(searchPathPattern(searchable), self);
  return {
    description: `One operator (${FILTER_OPERATORS.join(', ')}) mapping to {field: value}, or and/or to a list of filters, or not to a filter; at most ${SEARCH_LIMITS.maxNodes} nodes, ${SEARCH_LIMITS.maxDepth} levels deep.`,
    oneOf: FILTER_OPERATORS.map((op) => ({ type: 'object', title: op, required: [op], additionalProperties: false, properties: { [op]: byOperator[op] } })),
  };
}

/** One `query.sort` key: `{"<field>": "asc" | "desc"}`. */
export function searchSortKeySchema(searchable: SearchableFields): JsonSchema {
  return {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    propertyNames: { pattern: sortPathPattern(searchable) },
    additionalProperties: { enum: ['asc', 'desc'] },
  };
}
