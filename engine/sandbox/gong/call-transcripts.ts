/**
 * `POST /v2/calls/transcript` (API-NOTES C.3): `{cursor, filter}` ->
 * `{requestId, records, callTranscripts[{callId, transcript[{speakerId, topic, sentences[]}]}]}`.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { filterFromBody, selectCalls } from './calls-filter.js';
import type { GongContext } from './context.js';
import { gongRequestId, noCallsFound } from './errors.js';
import { readJsonBody } from './json-body.js';
import { paginate } from './paging.js';

/**
 * Transcripts of the calls the (required) filter selects, oldest first, paged by the body's
 * `cursor`. Private calls are left out: Airbyte filters `isPrivate` calls out before asking for
 * transcripts (C.4), which the fake reads as "the API does not serve them" [unverified]. No match
 * is the calls 404 (the spec's 404 for this operation is "No calls found for the specified
 * period"). Speaker ids are those of the call's `parties[].speakerId` (C.3).
 */
export function callTranscripts(ctx: GongContext, req: FakeRequest): FakeResponse {
  const body = readJsonBody(req);
  if (!body.ok) return body.response;
  const parsed = filterFromBody(ctx, req, body.body['filter'], false);
  if (!parsed.ok) return parsed.response;
  const selected = selectCalls(ctx.data.callRecords, parsed.filter).filter((record) => !record.metaData.isPrivate);
  const page = paginate(ctx.cursors, req, 'transcripts', { filter: body.body['filter'] }, selected, body.cursor);
  if (!page.ok) return page.response;
  if (selected.length === 0) return noCallsFound(req);
  return jsonResponse(200, {
    requestId: gongRequestId(req),
    records: page.records,
    callTranscripts: page.items.map((record) => ({ callId: record.metaData.id, transcript: ctx.data.transcript(record) })),
  });
}
