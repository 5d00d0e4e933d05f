/**
 * `GET /v2/calls/{id}` (API-NOTES C.3): `{requestId, call}`.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { GongContext } from './context.js';
import { gongError, gongRequestId, malformed } from './errors.js';

/**
 * One call's `CallBasicData` by id (private calls included). A non-numeric id is 400; an unknown
 * one 404 with the spec's description "Call ID was not found" as the message.
 */
export function getCall(ctx: GongContext, req: FakeRequest): FakeResponse {
  const id = req.params['id'] ?? '';
  if (!/^\d{1,20}$/.test(id)) return malformed(req, `'${id}' is not a valid call id: ids are numeric, up to 20 digits`);
  const record = ctx.data.callRecord(id);
  if (!record) return gongError(req, 404, 'Call ID was not found');
  return jsonResponse(200, { requestId: gongRequestId(req), call: record.metaData });
}
