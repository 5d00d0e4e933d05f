/**
 * `GET /v2/users` (API-NOTES C.3): `{requestId, records, users[]}`, paged by `?cursor=`.
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { GongContext } from './context.js';
import { gongRequestId, malformed } from './errors.js';
import { paginate } from './paging.js';

/**
 * Lists the company's users in id order, avatars only with `includeAvatars=true` (C.3).
 * Why: the users stream every Gong connector reads.
 */
export function listUsers(ctx: GongContext, req: FakeRequest): FakeResponse {
  const raw = lastParam(req.query, 'includeAvatars');
  const includeAvatars = parseBoolean(raw);
  if (includeAvatars === undefined) return malformed(req, `includeAvatars must be true or false, got '${raw ?? ''}'`);
  const page = paginate(ctx.cursors, req, 'users', { includeAvatars }, ctx.data.users(includeAvatars), lastParam(req.query, 'cursor'));
  if (!page.ok) return page.response;
  return jsonResponse(200, { requestId: gongRequestId(req), records: page.records, users: page.items });
}

/**
 * A boolean query value as a Java web framework binds it (absent -> false); undefined when invalid.
 * Why: `includeAvatars` is a boolean parameter; a bad value is a malformed request.
 */
export function parseBoolean(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}
