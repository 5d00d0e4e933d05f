/**
 * `GET /v2/calls` (API-NOTES C.3): `{requestId, records, calls[]}` for a date range, paged by `?cursor=`.
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { filterFromQuery, selectCalls } from './calls-filter.js';
import type { GongContext } from './context.js';
import { gongRequestId, noCallsFound } from './errors.js';
import { paginate } from './paging.js';

/**
 * Lists calls whose filter time is in [fromDateTime, toDateTime), optionally of one workspace,
 * oldest first; no match is 404 "No calls found corresponding to the provided filters" (C.4).
 * Why: the calls stream of every Gong connector, with Gong's 404-for-empty.
 */
export function listCalls(ctx: GongContext, req: FakeRequest): FakeResponse {
  const parsed = filterFromQuery(ctx, req);
  if (!parsed.ok) return parsed.response;
  const selected = selectCalls(ctx.data.callRecords, parsed.filter);
  const inputs = {
    fromDateTime: lastParam(req.query, 'fromDateTime') ?? '',
    toDateTime: lastParam(req.query, 'toDateTime') ?? '',
    workspaceId: lastParam(req.query, 'workspaceId') ?? '',
  };
  const page = paginate(ctx.cursors, req, 'calls', inputs, selected, lastParam(req.query, 'cursor'));
  if (!page.ok) return page.response;
  if (selected.length === 0) return noCallsFound(req);
  return jsonResponse(200, { requestId: gongRequestId(req), records: page.records, calls: page.items.map((record) => record.metaData) });
}
