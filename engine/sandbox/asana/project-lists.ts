/**
 * Project lists and a project's sections (API-NOTES B3).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { badRequest } from './errors.js';
import type { AsanaProject } from './model.js';
import { listResponse, readLimit } from './paging.js';
import { booleanParam, queryValue, resolveProject, resolveTeam, resolveWorkspace } from './params.js';

/** B2 [3p] node-asana #75/#129: `limit` on `/projects` or `/tags` without a workspace. */
export const NEED_WORKSPACE_MESSAGE = 'Need to specify a workspace to paginate!';

function byArchived(projects: AsanaProject[], archived: boolean | undefined): string[] {
  return projects.filter((project) => archived === undefined || project.archived === archived).map((project) => project.gid);
}

/**
 * `GET /projects` with `workspace`, `team` (deprecated upstream, still honoured) and `archived`.
 * Sending `limit` without `workspace` (or `team`) is 400 "Need to specify a workspace to
 * paginate!" (B2); without any filter the list spans every workspace of the token owner.
 */
export function listProjects(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspaceGid = queryValue(req.query, 'workspace');
  const teamGid = queryValue(req.query, 'team');
  const limit = readLimit(req);
  if (!limit.ok) return limit.response;
  if (limit.limit !== undefined && workspaceGid === undefined && teamGid === undefined) return badRequest(NEED_WORKSPACE_MESSAGE);
  const archived = booleanParam(req.query, 'archived');
  if (!archived.ok) return archived.response;
  let projects = ctx.data.projects;
  if (workspaceGid !== undefined) {
    const workspace = resolveWorkspace(ctx.data, 'workspace', workspaceGid);
    if (!workspace.ok) return workspace.response;
    projects = projects.filter((project) => project.workspaceGid === workspace.value.gid);
  }
  if (teamGid !== undefined) {
    const team = resolveTeam(ctx.data, 'team', teamGid);
    if (!team.ok) return team.response;
    projects = projects.filter((project) => project.teamGid === team.value.gid);
  }
  return listResponse(ctx, req, 'project', byArchived(projects, archived.value));
}

/** `GET /workspaces/{workspace_gid}/projects` with `archived` (B3). */
export function listWorkspaceProjects(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspace = resolveWorkspace(ctx.data, 'workspace', req.params['workspace_gid'] ?? '');
  if (!workspace.ok) return workspace.response;
  const archived = booleanParam(req.query, 'archived');
  if (!archived.ok) return archived.response;
  return listResponse(ctx, req, 'project', byArchived(ctx.data.projectsOf(workspace.value.gid), archived.value));
}

/** `GET /teams/{team_gid}/projects` with `archived` (B3). */
export function listTeamProjects(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const team = resolveTeam(ctx.data, 'team', req.params['team_gid'] ?? '');
  if (!team.ok) return team.response;
  const archived = booleanParam(req.query, 'archived');
  if (!archived.ok) return archived.response;
  const projects = ctx.data.projects.filter((project) => project.teamGid === team.value.gid);
  return listResponse(ctx, req, 'project', byArchived(projects, archived.value));
}

/** `GET /projects/{project_gid}/sections`, in the project's order (B3). */
export function listProjectSections(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const project = resolveProject(ctx.data, 'project', req.params['project_gid'] ?? '');
  if (!project.ok) return project.response;
  return listResponse(ctx, req, 'section', project.value.sectionGids);
}
