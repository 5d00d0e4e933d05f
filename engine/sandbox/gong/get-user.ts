/**
 * `GET /v2/users/{id}` (API-NOTES C.3): `{requestId, user}`.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { GongContext } from './context.js';
import { gongError, gongRequestId, malformed } from './errors.js';

/**
 * One user by id, avatars included. A non-numeric id is 400 (ids are numeric strings of up to 20
 * digits, C.3); an unknown one 404 with the spec's description "User not found" as the message.
 */
export function getUser(ctx: GongContext, req: FakeRequest): FakeResponse {
  const id = req.params['id'] ?? '';
  if (!/^\d{1,20}$/.test(id)) return malformed(req, `'${id}' is not a valid user id: ids are numeric, up to 20 digits`);
  const user = ctx.data.user(id);
  if (!user) return gongError(req, 404, 'User not found');
  return jsonResponse(200, { requestId: gongRequestId(req), user });
}
