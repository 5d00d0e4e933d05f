import { afterAll, beforeAll, expect, test } from 'vitest';
import { findManifest, type ListResult, type RecordResult } from '../../engine/index.js';
import { checkRequest, checkResponse, loadOpenApi } from '../support/openapi-conformance.js';
import { startAsana, type AsanaHarness } from '../support/asana.js';
import { upstreamSpec } from '../support/upstream-specs.js';

let hub: AsanaHarness;

beforeAll(async () => {
  hub = await startAsana();
});
afterAll(() => hub.close());

test('every request the Asana manifest renders matches an operation of asana-v1.yaml, and every answer validates', async () => {
  const fake = hub.sandbox.fakes.asana;
  const a = fake.anchors;
  fake.clearRequests();
  const covered = new Set<string>();
  const run = async (entity: string, action: string, params: Record<string, unknown>) => {
    const result = await hub.asana().execute(entity, action, params);
    covered.add(`${entity}.${action}`);
    return result;
  };
  const first = { project: a.bigProjectGid, limit: 5, completed_since: 'now', modified_since: '2020-01-01T00:00:00Z' };
  const page = (await run('tasks', 'list', first)) as ListResult;
  await run('tasks', 'list', { ...first, offset: page.meta.next_cursor });
  await run('tasks', 'list', { section: a.sectionGid, limit: 5 });
  await run('tasks', 'list', { workspace: a.premiumWorkspaceGid, assignee: 'me', limit: 5 });
  await run('tasks', 'get', { task_gid: a.taskWithSubtasksGid });
  await run('project_tasks', 'list', { project_gid: a.bigProjectGid, completed_since: 'now', limit: 3 });
  await run('workspace_task_search', 'list', {
    workspace_gid: a.premiumWorkspaceGid,
    text: 'a',
    completed: false,
    'assignee.any': a.meGid,
    'projects.any': a.bigProjectGid,
    'sections.any': a.sectionGid,
    'teams.any': a.teamGid,
    'followers.any': a.meGid,
    'created_at.after': '2020-01-01T00:00:00Z',
    'created_at.before': '2030-01-01T00:00:00Z',
    'modified_at.after': '2020-01-01T00:00:00Z',
    'modified_at.before': '2030-01-01T00:00:00Z',
    'due_on.after': '2020-01-01',
    'due_on.before': '2030-01-01',
    resource_subtype: 'default_task',
    sort_by: 'created_at',
    sort_ascending: false,
    limit: 5,
  });
  const search = { workspace_gid: a.premiumWorkspaceGid, completed: false, sort_ascending: true, limit: 5 };
  const oldest = (await run('workspace_task_search', 'list', search)) as ListResult;
  await run('workspace_task_search', 'list', { ...search, offset: oldest.meta.next_cursor });
  await run('projects', 'list', {});
  await run('projects', 'list', { workspace: a.premiumWorkspaceGid, archived: false, limit: 5 });
  await run('projects', 'list', { team: a.teamGid, limit: 5 });
  await run('projects', 'get', { project_gid: a.bigProjectGid });
  await run('task_projects', 'list', { task_gid: a.multiHomedTaskGid });
  await run('team_projects', 'list', { team_gid: a.teamGid, archived: false });
  await run('workspace_projects', 'list', { workspace_gid: a.premiumWorkspaceGid, archived: true });
  await run('workspaces', 'list', {});
  await run('workspaces', 'get', { workspace_gid: a.premiumWorkspaceGid });
  await run('users', 'list', { workspace: a.premiumWorkspaceGid, limit: 5 });
  await run('users', 'list', { team: a.teamGid, limit: 5 });
  await run('users', 'get', { user_gid: a.userGid });
  await run('workspace_users', 'list', { workspace_gid: a.premiumWorkspaceGid });
  await run('team_users', 'list', { team_gid: a.teamGid, limit: 3 });
  await run('workspace_teams', 'list', { workspace_gid: a.premiumWorkspaceGid });
  await run('user_teams', 'list', { user_gid: 'me', organization: a.premiumWorkspaceGid });
  await run('teams', 'get', { team_gid: a.teamGid });
  await run('workspace_tags', 'list', { workspace_gid: a.premiumWorkspaceGid });
  await run('tags', 'get', { tag_gid: a.tagGid });
  await run('project_sections', 'list', { project_gid: a.bigProjectGid });
  await run('sections', 'get', { section_gid: a.sectionGid });
  await run('task_subtasks', 'list', { task_gid: a.taskWithSubtasksGid });
  await run('task_subtasks', 'list', { task_gid: a.taskWithSubtasksGid, opt_fields: 'parent,num_subtasks' });
  await run('task_dependencies', 'list', { task_gid: a.taskWithDependenciesGid });
  await run('task_dependents', 'list', { task_gid: a.taskWithDependentsGid });
  const attachment = (await run('attachments', 'get', { attachment_gid: a.attachments.asana })) as RecordResult;
  await run('attachments', 'list', { parent: (attachment.data.parent as { gid: string }).gid });
  const file = await hub.asana().execute('attachments', 'download', { attachment_gid: a.attachments.asana, range_header: 'bytes=0-9' });
  for await (const _ of file) void _;
  covered.add('attachments.download');

  const { manifest } = findManifest('asana');
  const declared = Object.entries(manifest.entities).flatMap(([entity, spec]) => Object.keys(spec.actions).map((action) => `${entity}.${action}`));
  expect([...covered].sort()).toEqual(declared.sort());

  const doc = loadOpenApi(upstreamSpec('asana-v1.yaml'));
  // Two known gaps of the document: it gives email_domains `format: uri` while its own example
  // (and the API) use bare domains, and task search documents `limit` only in its description
  // (API-NOTES B3: "limit (<= 100, in the description only)").
  const knownSpecQuirk = /email_domains.*format "uri"|tasks\/search: query parameter "limit" is not declared/;
  const problems = fake.requests.flatMap((r) => [...checkRequest(doc, r), ...checkResponse(doc, r)]).filter((p) => !knownSpecQuirk.test(p));
  expect(fake.requests.length).toBeGreaterThan(30);
  expect(fake.requests.every((r) => r.response.status === 200)).toBe(true);
  expect(problems).toEqual([]);
});
