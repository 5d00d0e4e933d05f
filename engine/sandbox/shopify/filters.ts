/**
 * Query-string filters of the REST list and count endpoints (API-NOTES B.6 list params), as
 * parsers from the raw value to a record predicate.
 */
import type { ShopifyRecord } from './model.js';
import { parseFilterTime } from './shop-time.js';

/** A parsed filter: the predicate, or the message of a 400 `{"errors":{"<param>":["<message>"]}}`. */
export type ParsedFilter<R> = { ok: true; test: (record: R) => boolean } | { ok: false; message: string };

/** Parses one filter value. */
export type FilterParser<R> = (value: string) => ParsedFilter<R>;

const pass = <R>(test: (record: R) => boolean): ParsedFilter<R> => ({ ok: true, test });
const fail = <R>(message: string): ParsedFilter<R> => ({ ok: false, message });

function field(record: ShopifyRecord, name: string): unknown {
  return record[name];
}

/** Comma-separated values, trimmed, blanks dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** `ids=1,2,3`: only these ids. Why: every list of B.6 takes `ids`. */
export function idsFilter<R extends ShopifyRecord>(): FilterParser<R> {
  return (value) => {
    const items = commaList(value);
    if (items.length === 0 || items.some((item) => !/^\d{1,16}$/.test(item))) return fail('must be a comma-separated list of ids');
    const ids = new Set(items.map(Number));
    return pass((record) => ids.has(record.id));
  };
}

/** `since_id=N`: ids greater than N. Why: B.3: "`since_id` (records with id > since_id)". */
export function sinceIdFilter<R extends ShopifyRecord>(): FilterParser<R> {
  return (value) => {
    if (!/^\d{1,16}$/.test(value.trim())) return fail('must be an integer');
    const since = Number(value.trim());
    return pass((record) => record.id > since);
  };
}

/**
 * `<name>_min` / `<name>_max` on a timestamp field, both inclusive; records whose field is null
 * never match. Why: B.6: `created_at_min/max`, `updated_at_min/max`, `processed_at_min/max`,
 * `published_at_min/max` (ISO 8601).
 */
export function timeFilter<R extends ShopifyRecord>(name: string, bound: 'min' | 'max'): FilterParser<R> {
  return (value) => {
    const limit = parseFilterTime(value);
    if (limit === undefined) return fail('must be an ISO 8601 date and time');
    return pass((record) => {
      const raw = field(record, name);
      if (typeof raw !== 'string') return false;
      const ms = Date.parse(raw);
      return bound === 'min' ? ms >= limit : ms <= limit;
    });
  };
}

/** Case-insensitive equality with a string field (`vendor`, `product_type`). */
export function equalsFilter<R extends ShopifyRecord>(name: string): FilterParser<R> {
  return (value) => {
    const wanted = value.trim().toLowerCase();
    return pass((record) => String(field(record, name) ?? '').toLowerCase() === wanted);
  };
}

/**
 * Case-insensitive substring of a string field (`title`). Whether Shopify matches titles exactly
 * or partly is not in the notes; the fake matches partly (a client that sends a full title gets it either way).
 */
export function containsFilter<R extends ShopifyRecord>(name: string): FilterParser<R> {
  return (value) => {
    const wanted = value.trim().toLowerCase();
    return pass((record) =>
      String(field(record, name) ?? '')
        .toLowerCase()
        .includes(wanted),
    );
  };
}

/** A comma list of exact values of a field (`handle=a,b`, `status=active,draft`), optionally from a closed set. */
export function anyOfFilter<R extends ShopifyRecord>(name: string, allowed?: readonly string[]): FilterParser<R> {
  return (value) => {
    const items = commaList(value);
    if (items.length === 0) return fail("can't be blank");
    if (allowed && items.some((item) => !allowed.includes(item))) return fail(`must be one of ${allowed.join(', ')}`);
    const wanted = new Set(items);
    return pass((record) => wanted.has(String(field(record, name))));
  };
}

/** One value from a closed table of predicates (`status=open|closed|cancelled|any`). */
export function choiceFilter<R extends ShopifyRecord>(choices: Record<string, (record: R) => boolean>): FilterParser<R> {
  return (value) => {
    const test = Object.prototype.hasOwnProperty.call(choices, value.trim()) ? choices[value.trim()] : undefined;
    return test ? pass(test) : fail(`must be one of ${Object.keys(choices).join(', ')}`);
  };
}

/** `published_status=published|unpublished|any` on `published_at`. Why: B.6 products and collections. */
export function publishedStatusFilter<R extends ShopifyRecord>(): FilterParser<R> {
  return choiceFilter<R>({
    published: (record) => field(record, 'published_at') !== null,
    unpublished: (record) => field(record, 'published_at') === null,
    any: () => true,
  });
}

/** An id parameter matched through a membership lookup (`collection_id`, `product_id`). */
export function memberOfFilter<R extends ShopifyRecord>(members: (id: number) => ReadonlySet<number>): FilterParser<R> {
  return (value) => {
    if (!/^\d{1,16}$/.test(value.trim())) return fail('must be an integer');
    const set = members(Number(value.trim()));
    return pass((record) => set.has(record.id));
  };
}

/**
 * A parameter Shopify accepts that changes nothing the fake serves (`presentment_currencies`,
 * `in_shop_currency`): validated loosely, matches every record. It still counts as a filter, so it
 * may not accompany `page_info` (B.3).
 */
export function acceptedFilter<R extends ShopifyRecord>(pattern: RegExp, message: string): FilterParser<R> {
  return (value) => (pattern.test(value.trim()) ? pass(() => true) : fail(message));
}
