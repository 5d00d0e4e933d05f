/**
 * Workspaces, users and teams lists (API-NOTES B3).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import type { AsanaUser } from './model.js';
import { listResponse } from './paging.js';
import { queryValue, requiredQuery, resolveTeam, resolveUser, resolveWorkspace } from './params.js';

/** B3 [spec]: `/workspaces/{gid}/users` and `/teams/{gid}/users` are "capped at 2000". */
export const MEMBER_LIST_CAP = 2000;

function alphabetical(users: AsanaUser[]): string[] {
  return [...users].sort((a, b) => a.name.localeCompare(b.name, 'en') || (a.gid < b.gid ? -1 : 1)).map((user) => user.gid);
}

/** `GET /workspaces`: the token owner's workspaces and organizations. */
export function listWorkspaces(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const me = ctx.data.user(ctx.records.meGid)!;
  return listResponse(ctx, req, 'workspace', me.workspaceGids);
}

/**
 * `GET /users` with `workspace` and/or `team`, sorted by user id (B3). Without a filter: every
 * user who shares a workspace with the token owner.
 */
export function listUsers(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspaceGid = queryValue(req.query, 'workspace');
  const teamGid = queryValue(req.query, 'team');
  const me = ctx.data.user(ctx.records.meGid)!;
  let users = ctx.data.users.filter((user) => user.workspaceGids.some((gid) => me.workspaceGids.includes(gid)));
  if (workspaceGid !== undefined) {
    const workspace = resolveWorkspace(ctx.data, 'workspace', workspaceGid);
    if (!workspace.ok) return workspace.response;
    users = users.filter((user) => user.workspaceGids.includes(workspace.value.gid));
  }
  if (teamGid !== undefined) {
    const team = resolveTeam(ctx.data, 'team', teamGid);
    if (!team.ok) return team.response;
    users = users.filter((user) => team.value.memberGids.includes(user.gid));
  }
  return listResponse(ctx, req, 'user', users.map((user) => user.gid).sort());
}

/**
 * `GET /workspaces/{workspace_gid}/users`: alphabetical, at most 2000, `offset` only; the spec
 * has no `limit` here, so one sent is ignored and `next_page` never appears (B3, C6).
 */
export function listWorkspaceUsers(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspace = resolveWorkspace(ctx.data, 'workspace', req.params['workspace_gid'] ?? '');
  if (!workspace.ok) return workspace.response;
  return listResponse(ctx, req, 'user', alphabetical(ctx.data.membersOf(workspace.value.gid)), { pageable: false, cap: MEMBER_LIST_CAP });
}

/** `GET /teams/{team_gid}/users`: like the workspace's (B3). */
export function listTeamUsers(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const team = resolveTeam(ctx.data, 'team', req.params['team_gid'] ?? '');
  if (!team.ok) return team.response;
  const members = team.value.memberGids.map((gid) => ctx.data.user(gid)!);
  return listResponse(ctx, req, 'user', alphabetical(members), { pageable: false, cap: MEMBER_LIST_CAP });
}

/**
 * `GET /workspaces/{workspace_gid}/teams`: the organization's teams. A plain workspace has no
 * teams and answers an empty list (whether Asana answers an error there is [unverified]).
 */
export function listWorkspaceTeams(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspace = resolveWorkspace(ctx.data, 'workspace', req.params['workspace_gid'] ?? '');
  if (!workspace.ok) return workspace.response;
  return listResponse(
    ctx,
    req,
    'team',
    ctx.data.teams.filter((team) => team.organizationGid === workspace.value.gid).map((team) => team.gid),
  );
}

/**
 * `GET /users/{user_gid}/teams?organization=`: `organization` is required (400 "organization:
 * Missing input"); `user_gid` may be `me`, an email or a gid (B3).
 */
export function listUserTeams(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const organizationGid = requiredQuery(req.query, 'organization');
  if (!organizationGid.ok) return organizationGid.response;
  const user = resolveUser(ctx.data, 'user', req.params['user_gid'] ?? '', ctx.records.meGid);
  if (!user.ok) return user.response;
  const organization = resolveWorkspace(ctx.data, 'organization', organizationGid.value);
  if (!organization.ok) return organization.response;
  const teams = ctx.data.teams.filter((team) => team.organizationGid === organization.value.gid && team.memberGids.includes(user.value.gid));
  return listResponse(
    ctx,
    req,
    'team',
    teams.map((team) => team.gid),
  );
}
