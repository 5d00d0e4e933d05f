/**
 * Tag lists and a parent's attachments (API-NOTES B3, B5).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { badRequest, unknownObject } from './errors.js';
import { listResponse, readLimit } from './paging.js';
import { gidValue, queryValue, requiredQuery, resolveWorkspace } from './params.js';
import { NEED_WORKSPACE_MESSAGE } from './project-lists.js';

/** `GET /workspaces/{workspace_gid}/tags` (B3). */
export function listWorkspaceTags(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspace = resolveWorkspace(ctx.data, 'workspace', req.params['workspace_gid'] ?? '');
  if (!workspace.ok) return workspace.response;
  return listResponse(
    ctx,
    req,
    'tag',
    ctx.data.tags.filter((tag) => tag.workspaceGid === workspace.value.gid).map((tag) => tag.gid),
  );
}

/** `GET /tags` with `workspace`; `limit` without `workspace` is 400 "Need to specify a workspace to paginate!" (B2). */
export function listTags(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspaceGid = queryValue(req.query, 'workspace');
  const limit = readLimit(req);
  if (!limit.ok) return limit.response;
  if (limit.limit !== undefined && workspaceGid === undefined) return badRequest(NEED_WORKSPACE_MESSAGE);
  let tags = ctx.data.tags;
  if (workspaceGid !== undefined) {
    const workspace = resolveWorkspace(ctx.data, 'workspace', workspaceGid);
    if (!workspace.ok) return workspace.response;
    tags = tags.filter((tag) => tag.workspaceGid === workspace.value.gid);
  }
  return listResponse(
    ctx,
    req,
    'tag',
    tags.map((tag) => tag.gid),
  );
}

/**
 * `GET /attachments?parent=`: `parent` is required (400 "parent: Missing input") and must be a
 * task or a project (B3: "a task, project or project_brief gid"; the fake seeds no project
 * attachments, so a project lists none). Anything else is 404 "parent: Unknown object".
 */
export function listAttachments(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const parent = requiredQuery(req.query, 'parent');
  if (!parent.ok) return parent.response;
  const gid = gidValue('parent', parent.value);
  if (!gid.ok) return gid.response;
  const task = ctx.data.task(gid.value);
  if (task) return listResponse(ctx, req, 'attachment', task.attachmentGids);
  if (ctx.data.project(gid.value)) return listResponse(ctx, req, 'attachment', []);
  return unknownObject('parent', gid.value);
}
