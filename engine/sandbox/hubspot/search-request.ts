/**
 * Validation of `PublicObjectSearchRequest` bodies (API-NOTES A5, upstream-specs/README.md).
 */
import { propertyDef, type ObjectTypeDef } from './object-types.js';
import type { Parsed } from './read-params.js';

/** A5 [spec] operators. */
export const SEARCH_OPERATORS = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/**
 * The spec says "Up to 6 groups"; a 2024 changelog says 5. The product follows the spec's 6
 * (upstream-specs/README.md "Known gaps").
 */
export const MAX_FILTER_GROUPS = 6;
/** A5 [doc] changelog 2024-08-26: at most 25 filters over all groups. */
export const MAX_TOTAL_FILTERS = 25;
/** A5 [spec]: query up to 3000 characters. */
export const MAX_QUERY_LENGTH = 3000;
/** A5 [spec]: up to 200 objects per page; default 10. */
export const MAX_SEARCH_LIMIT = 200;
export const DEFAULT_SEARCH_LIMIT = 10;
/** A5 [doc]: "limited to 10,000 total results for any given query". */
export const SEARCH_RESULT_CAP = 10_000;

/** One filter after validation. */
export interface SearchFilter {
  propertyName: string;
  operator: SearchOperator;
  value?: string;
  highValue?: string;
  values?: string[];
}

/** One sort key. */
export interface SearchSort {
  propertyName: string;
  descending: boolean;
}

/** A validated search request. */
export interface SearchRequest {
  /** OR of groups; each group is an AND of filters. */
  filterGroups: SearchFilter[][];
  sorts: SearchSort[];
  query: string | undefined;
  properties: string[] | undefined;
  limit: number;
  /** Numeric offset (A5: `after` is effectively an offset string). */
  offset: number;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function scalar(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Validates a search body for `def`. Answers 400-worthy messages for: more than 6 groups, more
 * than 25 filters, a query over 3000 characters, a limit outside 0..200, a non-numeric `after`,
 * `after + limit` over 10,000 (checked whatever the number of matches, so the cap is testable on
 * small data), unknown operators, missing operands, and unknown properties [unverified].
 * Sorts are accepted in object form (`{propertyName, direction}`, A5 [3p]) and as the spec's
 * strings (`"createdate"`, or `"-createdate"` for descending [unverified]).
 * Why: HubSpot rejects these requests; the fake must too, or connectors ship broken searches.
 */
export function parseSearchRequest(body: unknown, def: ObjectTypeDef): Parsed<SearchRequest> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('Invalid input JSON: the search body must be a JSON object');
  const input = body as Record<string, unknown>;

  const groupsRaw = input['filterGroups'] ?? [];
  if (!Array.isArray(groupsRaw)) return fail('filterGroups must be an array');
  if (groupsRaw.length > MAX_FILTER_GROUPS) {
    return fail(`Too many filter groups: ${groupsRaw.length}. A search can have at most ${MAX_FILTER_GROUPS} filterGroups.`);
  }
  const filterGroups: SearchFilter[][] = [];
  let totalFilters = 0;
  for (const [g, group] of groupsRaw.entries()) {
    if (group === null || typeof group !== 'object') return fail(`filterGroups[${g}] must be an object`);
    const filtersRaw = (group as Record<string, unknown>)['filters'] ?? [];
    if (!Array.isArray(filtersRaw)) return fail(`filterGroups[${g}].filters must be an array`);
    totalFilters += filtersRaw.length;
    if (totalFilters > MAX_TOTAL_FILTERS) {
      return fail(`Too many filters. A search can have at most ${MAX_TOTAL_FILTERS} filters across all filterGroups.`);
    }
    const filters: SearchFilter[] = [];
    for (const [f, filterRaw] of filtersRaw.entries()) {
      const parsed = parseFilter(filterRaw, def, `filterGroups[${g}].filters[${f}]`);
      if (!parsed.ok) return parsed;
      filters.push(parsed.value);
    }
    filterGroups.push(filters);
  }

  const queryRaw = input['query'];
  if (queryRaw !== undefined && queryRaw !== null && typeof queryRaw !== 'string') return fail('query must be a string');
  const query = typeof queryRaw === 'string' ? queryRaw : undefined;
  if (query !== undefined && query.length > MAX_QUERY_LENGTH) {
    return fail(`query is ${query.length} characters long; the maximum is ${MAX_QUERY_LENGTH}`);
  }

  const limitRaw = input['limit'] ?? DEFAULT_SEARCH_LIMIT;
  const limit = typeof limitRaw === 'string' && /^\d+$/.test(limitRaw) ? Number(limitRaw) : limitRaw;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > MAX_SEARCH_LIMIT) {
    return fail(`limit must be an integer between 0 and ${MAX_SEARCH_LIMIT}, got ${JSON.stringify(limitRaw)}`);
  }

  const afterRaw = scalar(input['after']) ?? '0';
  if (!/^\d{1,9}$/.test(afterRaw.trim())) return fail(`after must be a numeric offset, got ${JSON.stringify(input['after'])}`);
  const offset = Number(afterRaw.trim());
  if (offset + limit > SEARCH_RESULT_CAP) {
    return fail(`The search endpoints are limited to ${SEARCH_RESULT_CAP} total results for any given query; after (${offset}) + limit (${limit}) exceeds it.`);
  }

  const sorts: SearchSort[] = [];
  const sortsRaw = input['sorts'] ?? [];
  if (!Array.isArray(sortsRaw)) return fail('sorts must be an array');
  for (const [s, sortRaw] of sortsRaw.entries()) {
    const parsed = parseSort(sortRaw, def, `sorts[${s}]`);
    if (!parsed.ok) return parsed;
    sorts.push(parsed.value);
  }

  const propertiesRaw = input['properties'];
  let properties: string[] | undefined;
  if (propertiesRaw !== undefined && propertiesRaw !== null) {
    if (!Array.isArray(propertiesRaw) || propertiesRaw.some((name) => typeof name !== 'string')) {
      return fail('properties must be an array of property names');
    }
    properties = propertiesRaw.length > 0 ? (propertiesRaw as string[]) : undefined;
  }

  return { ok: true, value: { filterGroups, sorts, query, properties, limit, offset } };
}

function parseFilter(raw: unknown, def: ObjectTypeDef, where: string): Parsed<SearchFilter> {
  if (raw === null || typeof raw !== 'object') return fail(`${where} must be an object`);
  const input = raw as Record<string, unknown>;
  const propertyName = input['propertyName'];
  if (typeof propertyName !== 'string' || propertyName === '') return fail(`${where}.propertyName is required`);
  if (!propertyDef(def, propertyName)) return fail(`${where}: ${propertyName} is not a valid property of ${def.name}`);
  const operator = input['operator'];
  if (typeof operator !== 'string' || !(SEARCH_OPERATORS as readonly string[]).includes(operator)) {
    return fail(`${where}.operator must be one of ${SEARCH_OPERATORS.join(', ')}, got ${JSON.stringify(operator)}`);
  }
  const filter: SearchFilter = { propertyName, operator: operator as SearchOperator };
  const value = scalar(input['value']);
  const highValue = scalar(input['highValue']);
  if (operator === 'IN' || operator === 'NOT_IN') {
    const values = input['values'];
    if (!Array.isArray(values) || values.length === 0) return fail(`${where}: operator ${operator} needs a non-empty values array`);
    const strings = values.map(scalar);
    if (strings.some((item) => item === undefined)) return fail(`${where}.values must hold strings`);
    filter.values = strings as string[];
  } else if (operator === 'BETWEEN') {
    if (value === undefined || highValue === undefined) return fail(`${where}: operator BETWEEN needs value and highValue`);
    filter.value = value;
    filter.highValue = highValue;
  } else if (operator !== 'HAS_PROPERTY' && operator !== 'NOT_HAS_PROPERTY') {
    if (value === undefined) return fail(`${where}: operator ${operator} needs a value`);
    filter.value = value;
  }
  return { ok: true, value: filter };
}

function parseSort(raw: unknown, def: ObjectTypeDef, where: string): Parsed<SearchSort> {
  let propertyName: unknown;
  let descending = false;
  if (typeof raw === 'string') {
    descending = raw.startsWith('-');
    propertyName = descending ? raw.slice(1) : raw;
  } else if (raw !== null && typeof raw === 'object') {
    const input = raw as Record<string, unknown>;
    propertyName = input['propertyName'];
    const direction = input['direction'] ?? 'ASCENDING';
    if (direction !== 'ASCENDING' && direction !== 'DESCENDING') return fail(`${where}.direction must be ASCENDING or DESCENDING`);
    descending = direction === 'DESCENDING';
  } else {
    return fail(`${where} must be an object or a property name`);
  }
  if (typeof propertyName !== 'string' || !propertyDef(def, propertyName)) {
    return fail(`${where}: ${JSON.stringify(propertyName)} is not a valid property of ${def.name}`);
  }
  return { ok: true, value: { propertyName, descending } };
}
