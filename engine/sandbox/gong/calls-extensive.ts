/**
 * `POST /v2/calls/extensive` (API-NOTES C.3): `{cursor, filter, contentSelector}` ->
 * `{requestId, records, calls[{metaData, context, parties, content, interaction, collaboration, media}]}`.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { filterFromBody, selectCalls } from './calls-filter.js';
import { parseContentSelector } from './content-selector.js';
import type { GongContext } from './context.js';
import { gongRequestId, noCallsFound } from './errors.js';
import { readJsonBody } from './json-body.js';
import { paginate } from './paging.js';
import { renderExtensiveCall } from './render-extensive.js';

/**
 * Lists detailed calls matching the filter (dates, workspace, callIds, primaryUserIds; `filter`
 * is required by the spec), oldest first, paged by the body's top-level `cursor`; no match is the
 * calls 404 (C.4). The cursor binds the filter and the selector (C.2: other inputs stay the same).
 */
export function callsExtensive(ctx: GongContext, req: FakeRequest): FakeResponse {
  const body = readJsonBody(req);
  if (!body.ok) return body.response;
  const parsed = filterFromBody(ctx, req, body.body['filter'], true);
  if (!parsed.ok) return parsed.response;
  const selector = parseContentSelector(req, body.body['contentSelector']);
  if (!selector.ok) return selector.response;
  const selected = selectCalls(ctx.data.callRecords, parsed.filter);
  const inputs = { filter: body.body['filter'], contentSelector: body.body['contentSelector'] ?? null };
  const page = paginate(ctx.cursors, req, 'extensive', inputs, selected, body.cursor);
  if (!page.ok) return page.response;
  if (selected.length === 0) return noCallsFound(req);
  const now = ctx.now();
  return jsonResponse(200, {
    requestId: gongRequestId(req),
    records: page.records,
    calls: page.items.map((record) => renderExtensiveCall(ctx.data, record, selector.selection, ctx.mediaKey, now)),
  });
}
