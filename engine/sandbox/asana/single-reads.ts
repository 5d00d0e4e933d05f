/**
 * Single-record reads: `/tasks/{gid}`, `/projects/{gid}`, `/workspaces/{gid}`, `/users/{gid}`,
 * `/teams/{gid}`, `/tags/{gid}`, `/sections/{gid}`, `/attachments/{gid}` (API-NOTES B3, B5).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { unknownObject } from './errors.js';
import { parseOptFields } from './field-selection.js';
import type { ResourceType } from './model.js';
import { gidValue, resolveUser } from './params.js';
import { renderSingle } from './render.js';
import { asanaJson } from './respond.js';

/**
 * Serves the full record (`*Response`) of one object, or `gid` plus `opt_fields`; a malformed gid
 * is 400 "Not a Long", an unknown one 404 "<type>: Unknown object: <gid>". Users may be named by
 * `me`, an email or a gid (the optional `workspace` parameter changes nothing here). Each read of
 * an attachment mints a new two-minute `download_url` (B5).
 * Why: the `get` action of every task-management entity.
 */
export function readSingle(ctx: AsanaContext, req: FakeRequest, type: ResourceType, param: string): FakeResponse {
  const raw = req.params[param] ?? '';
  let gid: string;
  if (type === 'user') {
    const user = resolveUser(ctx.data, 'user', raw, ctx.records.meGid);
    if (!user.ok) return user.response;
    gid = user.value.gid;
  } else {
    const parsed = gidValue(type, raw);
    if (!parsed.ok) return parsed.response;
    gid = parsed.value;
    if (ctx.data.typeOf(gid) !== type) return unknownObject(type, gid);
  }
  return asanaJson(req, { data: renderSingle(ctx.records, type, gid, parseOptFields(req.query)) });
}
