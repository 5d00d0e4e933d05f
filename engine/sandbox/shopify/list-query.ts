/**
 * Reading a list request: `limit`, the filters and the `order` of the records (API-NOTES B.3, B.6).
 */
import { lastParam, type ParamMap } from '../param-map.js';
import type { ShopifyRecord } from './model.js';
import type { ResourceDef } from './resources.js';

/** B.3: "`limit`: default 50, max 250". */
export const DEFAULT_LIMIT = 50;
/** B.3: the largest page; more is a 400. */
export const MAX_LIMIT = 250;

/** A parsed value, or the 400 to answer as `{"errors":{"<param>":["<message>"]}}`. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; param: string; message: string };

/**
 * Parses `limit`: default 50; 1..250, otherwise a 400 `{"errors":{"limit":["must be less than or
 * equal to 250"]}}`. What Shopify does above 250 is not in the notes (a third-party page says the
 * answer is silently capped); the fake refuses, so that a client asking for more than it can get
 * finds out at once instead of reading short pages.
 */
export function parseLimit(query: ParamMap): Parsed<number> {
  const raw = lastParam(query, 'limit');
  if (raw === undefined || raw.trim() === '') return { ok: true, value: DEFAULT_LIMIT };
  if (!/^-?\d{1,9}$/.test(raw.trim())) return { ok: false, param: 'limit', message: 'must be an integer' };
  const value = Number(raw.trim());
  if (value < 1) return { ok: false, param: 'limit', message: 'must be greater than or equal to 1' };
  if (value > MAX_LIMIT) return { ok: false, param: 'limit', message: `must be less than or equal to ${MAX_LIMIT}` };
  return { ok: true, value };
}

/** How records are ordered: by `id` (default) or a timestamp, ascending or descending; ties by id. */
export interface SortOrder {
  field: string;
  descending: boolean;
}

/** The filters to apply and the order, ready to run over records. */
export interface Selection<R> {
  tests: Array<(record: R) => boolean>;
  order: SortOrder;
}

/**
 * The filter values of a first request: the resource's known filters plus `order`; other
 * parameters are ignored, as Shopify ignores parameters it does not know.
 * Why: these are what a `page_info` cursor carries to the next pages (B.3).
 */
export function filterValues<R extends ShopifyRecord>(def: ResourceDef<R>, query: ParamMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(query)) {
    if (name !== 'order' && !Object.prototype.hasOwnProperty.call(def.filters, name)) continue;
    const value = lastParam(query, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Parses filter values (and the resource's defaults for those not given) into predicates and an order.
 * `order` takes `<field> asc|desc` with field `id` or one of the resource's timestamp fields
 * (`order=updated_at asc`, as Airbyte sends); the default is `id asc` (records sorted by id).
 */
export function buildSelection<R extends ShopifyRecord>(def: ResourceDef<R>, values: Record<string, string>): Parsed<Selection<R>> {
  const tests: Array<(record: R) => boolean> = [];
  const merged = { ...def.defaults, ...values };
  let order: SortOrder = { field: 'id', descending: false };
  for (const [name, value] of Object.entries(merged)) {
    if (name === 'order') {
      const match = /^\s*([a-z_]+)(?:[\s+]+(asc|desc))?\s*$/i.exec(value);
      const field = match?.[1]?.toLowerCase();
      if (!match || !field || (field !== 'id' && !def.sortFields.includes(field))) {
        return { ok: false, param: 'order', message: `must be one of ${['id', ...def.sortFields].join(', ')}, followed by asc or desc` };
      }
      order = { field, descending: match[2]?.toLowerCase() === 'desc' };
      continue;
    }
    const parser = def.filters[name];
    if (!parser) return { ok: false, param: name, message: 'is not a filter of this resource' };
    const parsed = parser(value);
    if (!parsed.ok) return { ok: false, param: name, message: parsed.message };
    tests.push(parsed.test);
  }
  return { ok: true, value: { tests, order } };
}

/** The numeric sort value of a record for `order`. */
export function sortValue(record: ShopifyRecord, order: SortOrder): number {
  if (order.field === 'id') return record.id;
  const raw = record[order.field];
  return typeof raw === 'string' ? Date.parse(raw) : Number.NEGATIVE_INFINITY;
}

/** The cursor text of a record's sort value: its id, or its timestamp as written. */
export function sortValueText(record: ShopifyRecord, order: SortOrder): string {
  if (order.field === 'id') return String(record.id);
  const raw = record[order.field];
  return typeof raw === 'string' ? raw : '';
}

/** Parses a cursor's sort value text back to a number, or undefined when it is not one. */
export function parseSortValueText(text: string, order: SortOrder): number | undefined {
  if (order.field === 'id') return /^\d{1,16}$/.test(text) ? Number(text) : undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Compares a record with a (value, id) key in the list's order: negative when the record comes first.
 * Why: keyset paging; a cursor names the last (or first) record of a page, not an offset.
 */
export function compareToKey(record: ShopifyRecord, value: number, id: number, order: SortOrder): number {
  const primary = sortValue(record, order) - value;
  const result = primary !== 0 ? primary : record.id - id;
  return order.descending ? -result : result;
}
