/**
 * `GET /v2/workspaces` (API-NOTES C.3): `{requestId, workspaces[{id, name, description}]}`, not paged.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { GongContext } from './context.js';
import { gongRequestId } from './errors.js';

/** Every workspace of the company, without a `records` block (C.3). */
export function listWorkspaces(ctx: GongContext, req: FakeRequest): FakeResponse {
  return jsonResponse(200, { requestId: gongRequestId(req), workspaces: ctx.data.workspaces });
}
