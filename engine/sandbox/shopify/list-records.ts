/**
 * The generic REST list handler: filters, order, `limit`, `page_info` and the `Link` header
 * (API-NOTES B.3, B.6).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse, type HeaderValue } from '../responses.js';
import { invalidPageInfo, invalidParam, pageInfoConflict } from './errors.js';
import { linkHeader } from './link-header.js';
import { buildSelection, compareToKey, filterValues, parseLimit, parseSortValueText, sortValue, sortValueText, type Selection } from './list-query.js';
import type { ShopifyRecord } from './model.js';
import { decodePageInfo, encodePageInfo } from './page-info.js';
import type { ResourceDef } from './resources.js';
import { requestedFields, selectFields } from './select-fields.js';

/** B.3: with `page_info`, only these parameters may accompany it. */
const PAGE_INFO_COMPANIONS = new Set(['page_info', 'limit', 'fields']);

/**
 * Answers a list request over `records` (ascending ids): `{<plural>: [...]}`.
 * Paged resources: `limit` (default 50, max 250), a `page_info` cursor that carries the first
 * request's filters and may only be combined with `limit` and `fields` (otherwise 400), and a
 * `Link` header with `rel="previous"`/`rel="next"` cursors, absent when everything fits on one page.
 * Unpaged resources return every matching record.
 * Why: this is the list operation every Shopify entity of the connector pages over.
 */
export function listRecords<R extends ShopifyRecord>(def: ResourceDef<R>, records: readonly R[], req: FakeRequest): FakeResponse {
  const fields = requestedFields(req.query);
  const render = (record: R) => selectFields(record, fields);
  if (!def.paged) {
    const selection = buildSelection(def, filterValues(def, req.query));
    if (!selection.ok) return invalidParam(selection.param, selection.message);
    return jsonResponse(200, { [def.plural]: applySelection(records, selection.value).map(render) });
  }

  const pageInfo = lastParam(req.query, 'page_info');
  if (pageInfo !== undefined) {
    const extra = Object.keys(req.query).find((name) => !PAGE_INFO_COMPANIONS.has(name));
    if (extra !== undefined) return pageInfoConflict(extra);
  }
  const limit = parseLimit(req.query);
  if (!limit.ok) return invalidParam(limit.param, limit.message);

  const cursor = pageInfo === undefined ? undefined : decodePageInfo(pageInfo);
  if (pageInfo !== undefined && (!cursor || cursor.resource !== def.name)) return invalidPageInfo();
  const values = cursor ? cursor.filters : filterValues(def, req.query);
  const selection = buildSelection(def, values);
  if (!selection.ok) return cursor ? invalidPageInfo() : invalidParam(selection.param, selection.message);
  const { order } = selection.value;
  const matched = applySelection(records, selection.value);

  let start = 0;
  let end = Math.min(matched.length, limit.value);
  if (cursor) {
    const keyValue = parseSortValueText(cursor.lastValue, order);
    if (keyValue === undefined) return invalidPageInfo();
    if (cursor.direction === 'next') {
      start = firstIndex(matched, (record) => compareToKey(record, keyValue, cursor.lastId, order) > 0);
      end = Math.min(matched.length, start + limit.value);
    } else {
      end = firstIndex(matched, (record) => compareToKey(record, keyValue, cursor.lastId, order) >= 0);
      start = Math.max(0, end - limit.value);
    }
  }
  const page = matched.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  const cursorFor = (record: R, direction: 'next' | 'prev'): string =>
    encodePageInfo({ resource: def.name, direction, lastId: record.id, lastValue: sortValueText(record, order), filters: values });
  const link = linkHeader(req, limit.value, fields?.join(','), {
    ...(first && start > 0 ? { previous: cursorFor(first, 'prev') } : {}),
    ...(last && end < matched.length ? { next: cursorFor(last, 'next') } : {}),
  });
  const headers: Record<string, HeaderValue> = link ? { Link: link } : {};
  return jsonResponse(200, { [def.plural]: page.map(render) }, headers);
}

/**
 * Runs the filters and sorts. Records arrive in ascending id order, so `id asc` needs no sort.
 * Why: shared by lists and counts.
 */
export function applySelection<R extends ShopifyRecord>(records: readonly R[], selection: Selection<R>): R[] {
  const matched = selection.tests.length === 0 ? [...records] : records.filter((record) => selection.tests.every((test) => test(record)));
  const { order } = selection;
  if (order.field !== 'id' || order.descending) {
    matched.sort((a, b) => {
      const primary = sortValue(a, order) - sortValue(b, order);
      const result = primary !== 0 ? primary : a.id - b.id;
      return order.descending ? -result : result;
    });
  }
  return matched;
}

/** Index of the first record satisfying a monotone predicate (false...false true...true). */
function firstIndex<R>(records: readonly R[], predicate: (record: R) => boolean): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (predicate(records[mid]!)) high = mid;
    else low = mid + 1;
  }
  return low;
}
