/**
 * List answers: `limit`/`offset` paging with `next_page`, "result too large", and the 2000-item
 * lists that take no `limit` (API-NOTES B2, B3, B8).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { badRequest, TOO_LARGE_MESSAGE } from './errors.js';
import { parseOptFields } from './field-selection.js';
import type { ResourceType } from './model.js';
import { renderListItem } from './render.js';
import { asanaJson } from './respond.js';

/** B2 [spec]: `limit` is 1-100. */
const MIN_LIMIT = 1;
const MAX_LIMIT = 100;
/** The path prefix of the API on the fake (B1: `https://app.asana.com/api/1.0`). */
export const API_PREFIX = '/api/1.0';

/** How one list route pages. */
export interface ListOptions {
  /**
   * False for routes whose spec has no `limit` (`/workspaces/{gid}/users`, `/teams/{gid}/users`):
   * a `limit` there is ignored, `next_page` is never sent and the list stops at `cap`.
   */
  pageable?: boolean;
  /** B3 [spec]: those lists are "capped at 2000". */
  cap?: number;
}

/** Parameters that do not change which list a request reads. */
const NON_FILTER_PARAMS = new Set(['limit', 'offset', 'opt_fields', 'opt_pretty']);

/**
 * Identifies the list a request reads: its path plus its filter parameters (sorted).
 * Why: an offset is only valid for the list it was issued for.
 */
export function listKey(req: FakeRequest): string {
  const filters = [...req.url.searchParams].filter(([name]) => !NON_FILTER_PARAMS.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${req.url.pathname}?${new URLSearchParams(filters).toString()}`;
}

/** Parses `limit`: undefined when absent; a 400 when not an integer in 1..100 (B2, B8). */
export function readLimit(req: FakeRequest): { ok: true; limit: number | undefined } | { ok: false; response: FakeResponse } {
  const raw = lastParam(req.query, 'limit');
  if (raw === undefined || raw === '') return { ok: true, limit: undefined };
  if (!/^-?\d{1,9}$/.test(raw.trim())) return { ok: false, response: badRequest(`limit: Not a number: ${raw}`) };
  const limit = Number(raw.trim());
  // B2: limit > 100 gives 400 [3p]; the wording is [unverified].
  if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
    return { ok: false, response: badRequest(`limit: Must be between ${MIN_LIMIT} and ${MAX_LIMIT}, inclusive; got ${limit}`) };
  }
  return { ok: true, limit };
}

/**
 * Serves one list of objects of `type` (gids in the list's order):
 * - `offset` must be one the fake issued for this same list and unexpired: an expired one gets
 *   400 "offset: Your pagination token has expired." and any other 400 "offset: Your pagination
 *   token is invalid." (B2; both wordings [unverified]);
 * - with `limit` (1-100): that many items and `next_page: {offset, path, uri}`, or `next_page: null`
 *   on the last page (B2: `next_page` "is present only when `limit` was sent");
 * - without `limit`: the rest of the list and no `next_page`; over the fake's threshold (default
 *   500) that is 400 "The result is too large..." (B2 [3p]) unless the route has a hard `cap`.
 * Items are compact records, or `gid` plus `opt_fields` (B2).
 * Why: every list route of B3 pages this way.
 */
export function listResponse(ctx: AsanaContext, req: FakeRequest, type: ResourceType, gids: readonly string[], options: ListOptions = {}): FakeResponse {
  const pageable = options.pageable ?? true;
  let limit: number | undefined;
  if (pageable) {
    const parsed = readLimit(req);
    if (!parsed.ok) return parsed.response;
    limit = parsed.limit;
  }
  const key = listKey(req);
  let start = 0;
  const offset = lastParam(req.query, 'offset');
  if (offset !== undefined && offset !== '') {
    const decoded = ctx.offsets.decode(offset, key);
    if (!decoded.ok) {
      return badRequest(decoded.reason === 'expired' ? 'offset: Your pagination token has expired.' : 'offset: Your pagination token is invalid.');
    }
    start = decoded.position;
  }
  const selection = parseOptFields(req.query);
  const render = (slice: readonly string[]): unknown[] => slice.map((gid) => renderListItem(ctx.records, type, gid, selection));

  if (limit === undefined) {
    let rest = gids.slice(start);
    if (options.cap !== undefined) rest = rest.slice(0, options.cap);
    else if (rest.length > ctx.tooLargeThreshold) return badRequest(TOO_LARGE_MESSAGE);
    return asanaJson(req, { data: render(rest) });
  }
  const page = gids.slice(start, start + limit);
  const nextStart = start + limit;
  const body: Record<string, unknown> = { data: render(page), next_page: null };
  if (nextStart < gids.length) {
    const token = ctx.offsets.encode(key, nextStart);
    const params = new URLSearchParams([...req.url.searchParams].filter(([name]) => name !== 'offset'));
    params.append('offset', token);
    const relative = req.url.pathname.startsWith(API_PREFIX) ? req.url.pathname.slice(API_PREFIX.length) : req.url.pathname;
    const path = `${relative}?${params.toString()}`;
    body['next_page'] = { offset: token, path, uri: `${req.baseUrl}${API_PREFIX}${path}` };
  }
  return asanaJson(req, body);
}
