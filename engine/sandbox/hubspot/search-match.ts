/**
 * Evaluation of search filters, the full-text `query` and sorts over stored records (API-NOTES A5).
 */
import type { CrmRecord } from './dataset.js';
import { propertyDef, type ObjectTypeDef, type PropertyType } from './object-types.js';
import type { SearchFilter, SearchSort } from './search-request.js';

/**
 * Milliseconds since the epoch of a date value given as epoch-ms digits or ISO text.
 * Why: A8: "Compare dates as epoch-ms or ISO"; clients send both.
 */
function toMs(value: string): number {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
}

/**
 * Compares two property values by the property's type: numbers numerically, dates by instant,
 * other values as case-insensitive text [unverified: HubSpot's string collation].
 */
export function compareValues(type: PropertyType | undefined, a: string, b: string): number {
  if (type === 'number') {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  if (type === 'datetime' || type === 'date') {
    const x = toMs(a);
    const y = toMs(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Lower-case word tokens (letters and digits in any script). */
export function tokens(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/**
 * CONTAINS_TOKEN: the value holds the token as a whole word (case-insensitive); `*` wildcards
 * match any text against the whole value or one of its whitespace-separated words
 * (HubSpot's example: `*@hubspot.com`).
 */
function containsToken(value: string, token: string): boolean {
  const wanted = token.normalize('NFC').toLowerCase();
  const text = value.normalize('NFC').toLowerCase();
  if (wanted.includes('*')) {
    const pattern = new RegExp(
      `^${wanted
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      'u',
    );
    return pattern.test(text) || text.split(/\s+/).some((word) => pattern.test(word));
  }
  return text === wanted || text.split(/\s+/).includes(wanted) || tokens(text).includes(wanted);
}

/**
 * Whether `record` passes one filter. An absent or empty property passes only NEQ, NOT_IN,
 * NOT_HAS_PROPERTY and NOT_CONTAINS_TOKEN [unverified].
 */
export function matchesFilter(def: ObjectTypeDef, record: CrmRecord, filter: SearchFilter): boolean {
  const raw = record.properties[filter.propertyName];
  const value = raw === undefined || raw === '' ? undefined : raw;
  const type = propertyDef(def, filter.propertyName)?.type;
  const cmp = (other: string): number => compareValues(type, value ?? '', other);
  switch (filter.operator) {
    case 'EQ':
      return value !== undefined && cmp(filter.value ?? '') === 0;
    case 'NEQ':
      return value === undefined || cmp(filter.value ?? '') !== 0;
    case 'LT':
      return value !== undefined && cmp(filter.value ?? '') < 0;
    case 'LTE':
      return value !== undefined && cmp(filter.value ?? '') <= 0;
    case 'GT':
      return value !== undefined && cmp(filter.value ?? '') > 0;
    case 'GTE':
      return value !== undefined && cmp(filter.value ?? '') >= 0;
    case 'BETWEEN':
      return value !== undefined && cmp(filter.value ?? '') >= 0 && cmp(filter.highValue ?? '') <= 0;
    case 'IN':
      return value !== undefined && (filter.values ?? []).some((item) => cmp(item) === 0);
    case 'NOT_IN':
      return value === undefined || !(filter.values ?? []).some((item) => cmp(item) === 0);
    case 'HAS_PROPERTY':
      return value !== undefined;
    case 'NOT_HAS_PROPERTY':
      return value === undefined;
    case 'CONTAINS_TOKEN':
      return value !== undefined && containsToken(value, filter.value ?? '');
    case 'NOT_CONTAINS_TOKEN':
      return value === undefined || !containsToken(value, filter.value ?? '');
  }
}

/**
 * A5 [doc]: filters inside a group are ANDed, groups are ORed; no groups matches everything.
 */
export function matchesFilterGroups(def: ObjectTypeDef, record: CrmRecord, groups: SearchFilter[][]): boolean {
  if (groups.length === 0) return true;
  return groups.some((filters) => filters.every((filter) => matchesFilter(def, record, filter)));
}

/**
 * Full-text `query` over the type's default searchable properties (A5): every word of the query
 * must start a word of one of those values (case-insensitive, accents significant) [unverified].
 */
export function matchesQuery(def: ObjectTypeDef, record: CrmRecord, query: string | undefined): boolean {
  if (query === undefined) return true;
  const terms = tokens(query);
  if (terms.length === 0) return true;
  const words = def.searchableProperties.flatMap((name) => tokens(record.properties[name] ?? ''));
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}

/**
 * Orders records by the sorts, then by id (A5: Airbyte relies on `hs_object_id` order); records
 * without the sort property come last.
 */
export function sortRecords(def: ObjectTypeDef, records: CrmRecord[], sorts: SearchSort[]): CrmRecord[] {
  return [...records].sort((a, b) => {
    for (const sort of sorts) {
      const x = a.properties[sort.propertyName];
      const y = b.properties[sort.propertyName];
      if (x === undefined && y === undefined) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const order = compareValues(propertyDef(def, sort.propertyName)?.type, x, y);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return a.numericId - b.numericId;
  });
}
