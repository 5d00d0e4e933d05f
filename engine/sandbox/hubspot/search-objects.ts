/**
 * `POST /crm/v3/objects/{objectType}/search` (API-NOTES A5).
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { HubspotContext } from './context.js';
import { validationError } from './errors.js';
import { resolveObjectType } from './object-types.js';
import { renderRecord } from './render-record.js';
import { matchesFilterGroups, matchesQuery, sortRecords } from './search-match.js';
import { parseSearchRequest } from './search-request.js';

/**
 * Serves a search page: live records only (A5: archived records never appear), filter groups and
 * query applied, sorted, then `limit` records from the numeric offset `after`; `total` counts every
 * match; `paging.next.after` is the next offset while matches remain. Results never carry
 * associations.
 * Why: the `api_search` action of the CRM entities.
 */
export function searchObjects(ctx: HubspotContext, req: FakeRequest): FakeResponse {
  const builtIn = resolveObjectType(req.params['objectType'] ?? '');
  if (!builtIn) return validationError(`Unable to infer object type from: ${req.params['objectType'] ?? ''}`, req.requestId);
  if (req.bodyParseError !== undefined) return validationError(`Invalid input JSON: ${req.bodyParseError}`, req.requestId);
  // Filters and sorts may name the portal's custom properties, compared by their current types.
  const def = ctx.catalog.portalView(builtIn);
  const parsed = parseSearchRequest(req.body, def);
  if (!parsed.ok) return validationError(parsed.message, req.requestId);
  const search = parsed.value;
  const matches = ctx.data
    .records(def.name, false)
    .filter((record) => matchesFilterGroups(def, record, search.filterGroups) && matchesQuery(def, record, search.query));
  const ordered = search.sorts.length > 0 ? sortRecords(def, matches, search.sorts) : matches;
  const page = ordered.slice(search.offset, search.offset + search.limit);
  const body: Record<string, unknown> = {
    total: matches.length,
    results: page.map((record) => renderRecord(ctx.data, def, record, { properties: search.properties, propertiesWithHistory: [], associations: [] }, false)),
  };
  const nextOffset = search.offset + search.limit;
  if (search.limit > 0 && nextOffset < matches.length) body['paging'] = { next: { after: String(nextOffset) } };
  return jsonResponse(200, body);
}
