/**
 * `GET /crm/v3/objects/{objectType}`: one page of records (API-NOTES A3, A4, A8).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { decodeAfter, encodeAfter } from './cursor.js';
import type { HubspotContext } from './context.js';
import { validationError } from './errors.js';
import { resolveObjectType } from './object-types.js';
import { integerParam, readSelection } from './read-params.js';
import { renderRecord } from './render-record.js';

/** A3: default page size. */
const DEFAULT_LIMIT = 10;
/**
 * A3 [sdk]: the maximum page size is 100. What the API does above 100 is [unverified] (A8); the
 * fake answers 400 VALIDATION_ERROR instead of clamping, so that a client asking for more than it
 * can get finds out at once rather than silently reading smaller pages.
 */
const MAX_LIMIT = 100;
/**
 * A3: `propertiesWithHistory` "will reduce the maximum number of objects" per request; the cap
 * (commonly said to be 50) is [unverified]. The fake clamps the page to 50 and pages on normally.
 */
const HISTORY_PAGE_CAP = 50;

/**
 * Serves a list page: records in id order, only archived ones with `archived=true`, an opaque
 * base64 `after` cursor, `paging.next.{after,link}` with a full URL, and no `paging` on the last page.
 * Why: this is the list operation every HubSpot manifest paginates over.
 */
export function listObjects(ctx: HubspotContext, req: FakeRequest): FakeResponse {
  const def = resolveObjectType(req.params['objectType'] ?? '');
  if (!def) return validationError(`Unable to infer object type from: ${req.params['objectType'] ?? ''}`, req.requestId);
  const limit = integerParam(req.query, 'limit', DEFAULT_LIMIT);
  if (!limit.ok) return validationError(limit.message, req.requestId);
  if (limit.value < 1 || limit.value > MAX_LIMIT) {
    return validationError(`limit must be between 1 and ${MAX_LIMIT}, got ${limit.value}`, req.requestId);
  }
  const selection = readSelection(req.query);
  if (!selection.ok) return validationError(selection.message, req.requestId);
  const { archived, propertiesWithHistory } = selection.value;
  const pageSize = propertiesWithHistory.length > 0 ? Math.min(limit.value, HISTORY_PAGE_CAP) : limit.value;

  const records = ctx.data.records(def.name, archived);
  let start = 0;
  const after = lastParam(req.query, 'after');
  if (after !== undefined && after !== '') {
    const firstId = decodeAfter(after);
    if (firstId === undefined) return validationError(`Invalid paging cursor: ${after}`, req.requestId);
    start = lowerBound(records, firstId);
  }
  const page = records.slice(start, start + pageSize);
  const body: Record<string, unknown> = {
    results: page.map((record) => renderRecord(ctx.data, def, record, selection.value, true)),
  };
  const next = records[start + pageSize];
  if (next) {
    const cursor = encodeAfter(next.numericId);
    const link = new URL(req.url.pathname, req.baseUrl);
    for (const [name, value] of req.url.searchParams) if (name !== 'after') link.searchParams.append(name, value);
    link.searchParams.set('after', cursor);
    body['paging'] = { next: { after: cursor, link: link.toString() } };
  }
  return jsonResponse(200, body);
}

/** Index of the first record whose id is >= `id` (records are in id order). */
function lowerBound(records: ReadonlyArray<{ numericId: number }>, id: number): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((records[mid]?.numericId ?? 0) < id) low = mid + 1;
    else high = mid;
  }
  return low;
}
