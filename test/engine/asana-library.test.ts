import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ListResult, RecordResult } from '../../engine/index.js';
import type { AsanaTask } from '../../engine/sandbox/asana/index.js';
import { ASANA_PROJECT_FIELDS, startAsana, type AsanaHarness } from '../support/asana.js';

let hub: AsanaHarness;
let premium: string;
let free: string;
let bigProject: string;

const P1 = ['gid', 'name', 'resource_type'];
const T1 = ['created_by', 'gid', 'name', 'resource_subtype', 'resource_type'];

beforeAll(async () => {
  hub = await startAsana();
  const workspaces = (await hub.raw('/workspaces?opt_fields=name,is_organization')).body.data as Array<{ gid: string; is_organization: boolean }>;
  premium = workspaces.find((w) => w.is_organization)!.gid;
  free = workspaces.find((w) => !w.is_organization)!.gid;
  const projects = (await hub.raw(`/projects?workspace=${premium}&limit=100`)).body.data as Array<{ gid: string }>;
  let best = { gid: '', count: -1 };
  for (const project of projects) {
    const count = (await hub.raw(`/projects/${project.gid}/tasks?limit=100`)).body.data.length;
    if (count > best.count) best = { gid: project.gid, count };
  }
  bigProject = best.gid;
});
afterAll(() => hub.close());

async function list(entity: string, params: Record<string, unknown> = {}): Promise<ListResult> {
  return (await hub.asana().execute(entity, 'list', params)) as ListResult;
}

async function all(entity: string, params: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> {
  const out = [];
  for await (const record of hub.asana().records(entity, 'list', params)) out.push(record);
  return out;
}

describe('asana lists', () => {
  test('workspaces list returns P1 records and next_page meta; get returns the workspace record', async () => {
    const page = await list('workspaces', { limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(Object.keys(page.data[0]!).sort()).toEqual(P1);
    expect(page.meta.has_more).toBe(true);
    expect(page.meta.next_page).toEqual({ offset: expect.any(String), path: expect.any(String), uri: expect.any(String) });
    expect(page.meta.next_cursor).toBe((page.meta.next_page as { offset: string }).offset);
    const one = (await hub.asana().execute('workspaces', 'get', { workspace_gid: premium })) as RecordResult;
    expect(one.data).toMatchObject({ gid: premium, resource_type: 'workspace', is_organization: true, email_domains: expect.any(Array) });
  });

  test("the caller's params objects are left as they were: defaults and checks work on the engine's copy", async () => {
    // limit defaults to 100 (p_limit), applied in place by the validator; an object value is cloned before it is checked.
    const params: Record<string, unknown> = { workspace: premium, offset: undefined };
    const page = await list('users', params);
    expect(page.data.length).toBeGreaterThan(0);
    expect(params).toStrictEqual({ workspace: premium, offset: undefined });
    const nested = { list: ['a'] };
    const refused = await hub
      .asana()
      .execute('users', 'list', { workspace: premium, opt_fields: nested })
      .then(
        () => undefined,
        (error: { code: string }) => error.code,
      );
    expect(refused).toBe('INVALID_PARAMS');
    expect(nested).toStrictEqual({ list: ['a'] });
  });

  test('project_tasks pages across several pages with T1 records, each task once', async () => {
    const raw = await hub.raw(`/projects/${bigProject}/tasks?limit=100`);
    expect(raw.body.next_page).not.toBeNull();
    const tasks = await all('project_tasks', { project_gid: bigProject, limit: 100 });
    expect(tasks.length).toBeGreaterThan(500);
    expect(new Set(tasks.map((t) => t.gid)).size).toBe(tasks.length);
    for (const task of tasks.slice(0, 20)) expect(Object.keys(task).sort()).toEqual(T1);
    const last = await list('project_tasks', { project_gid: bigProject, limit: 100, offset: undefined });
    expect(last.data.map((t) => t.gid)).toEqual(tasks.slice(0, 100).map((t) => t.gid));
  });

  test('a project too big for one answer is still read whole, because the engine always sends a limit', async () => {
    const direct = await hub.raw(`/projects/${bigProject}/tasks`);
    expect(direct.status).toBe(400);
    expect(direct.body.errors[0].message).toContain('The result is too large');
    const page = await list('project_tasks', { project_gid: bigProject });
    expect(page.data).toHaveLength(100);
  });

  test('tasks list by project, by section and by workspace + assignee', async () => {
    const byProject = await list('tasks', { project: bigProject, limit: 5 });
    expect(byProject.data).toHaveLength(5);
    const sections = await list('project_sections', { project_gid: bigProject });
    expect(sections.data.length).toBeGreaterThan(0);
    const section = (await hub.asana().execute('sections', 'get', { section_gid: sections.data[0]!.gid as string })) as RecordResult;
    expect(section.data).toMatchObject({ gid: sections.data[0]!.gid, resource_type: 'section', project: expect.any(Object) });
    const bySection = await list('tasks', { section: section.data.gid as string, limit: 100 });
    for (const task of bySection.data) expect(Object.keys(task).sort()).toEqual(T1);
    const task = (await hub.asana().execute('tasks', 'get', { task_gid: byProject.data[0]!.gid as string })) as RecordResult;
    const assignee = (task.data.assignee as { gid: string } | null)?.gid ?? 'me';
    const mine = await list('tasks', { workspace: premium, assignee, limit: 10 });
    expect(mine.data.length).toBeGreaterThan(0);
  });

  test('the tasks list rule is checked before any request, naming the rule', async () => {
    const fake = hub.sandbox.fakes.asana;
    const before = fake.requests.length;
    for (const params of [{}, { workspace: premium }, { assignee: 'me' }, { completed_since: 'now' }]) {
      const error = await hub
        .asana()
        .execute('tasks', 'list', params)
        .catch((e) => e);
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.details).toEqual([{ path: '/', message: 'rule tasks-scope: give a project, or a section, or a workspace together with an assignee' }]);
    }
    expect(fake.requests.length).toBe(before);
  });

  test('projects: list, workspace_projects with archived, team_projects, get with SPEC fields', async () => {
    const projects = await all('projects', { workspace: premium });
    expect(projects.length).toBeGreaterThan(1);
    const archived = await list('workspace_projects', { workspace_gid: premium, archived: true });
    const active = await list('workspace_projects', { workspace_gid: premium, archived: false });
    expect(archived.data.length + active.data.length).toBe(projects.length);
    const project = (await hub.asana().execute('projects', 'get', { project_gid: bigProject })) as RecordResult;
    for (const field of ASANA_PROJECT_FIELDS) {
      expect(project.data).toHaveProperty(field);
    }
    const team = (project.data.team as { gid: string }).gid;
    const teamProjects = await all('team_projects', { team_gid: team });
    expect(teamProjects.map((p) => p.gid)).toContain(bigProject);
  });

  test('users, teams and their lists', async () => {
    const users = await all('users', { workspace: premium });
    expect(users.length).toBeGreaterThan(1);
    const user = (await hub.asana().execute('users', 'get', { user_gid: users[0]!.gid as string })) as RecordResult;
    expect(user.data).toMatchObject({ gid: users[0]!.gid, email: expect.any(String), workspaces: expect.any(Array) });
    const workspaceUsers = await list('workspace_users', { workspace_gid: premium });
    expect(workspaceUsers.data.length).toBe(users.length);
    const teams = await all('workspace_teams', { workspace_gid: premium });
    expect(teams.length).toBeGreaterThan(0);
    const team = (await hub.asana().execute('teams', 'get', { team_gid: teams[0]!.gid as string })) as RecordResult;
    expect(team.data).toMatchObject({ gid: teams[0]!.gid, resource_type: 'team', organization: expect.any(Object), permalink_url: expect.any(String) });
    const members = await list('team_users', { team_gid: teams[0]!.gid as string });
    expect(members.data.length).toBeGreaterThan(0);
    for (const member of members.data) expect(Object.keys(member).sort()).toEqual(P1);
    const userTeams = await all('user_teams', { user_gid: members.data[0]!.gid as string, organization: premium });
    expect(userTeams.map((t) => t.gid)).toContain(teams[0]!.gid);
  });

  test('workspace_users and team_users page with limit: has_more is true while users remain, and every user comes once', async () => {
    const fake = hub.sandbox.fakes.asana;
    const team = fake.dataset.team(fake.anchors.teamGid)!;
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ['workspace_users', { workspace_gid: premium }, fake.dataset.membersOf(premium).map((user) => user.gid)],
      ['team_users', { team_gid: team.gid }, [...team.memberGids]],
    ];
    for (const [entity, params, members] of cases) {
      const expected = [...members].sort();
      expect(expected.length).toBeGreaterThan(2);
      const first = await list(entity, { ...params, limit: 2 });
      expect(first.data.map((u) => u.gid)).toEqual(expected.slice(0, 2));
      expect(first.meta.has_more).toBe(true);
      expect(first.meta.next_page).toEqual({ offset: first.meta.next_cursor, path: expect.any(String), uri: expect.any(String) });
      const every = await all(entity, { ...params, limit: 2 });
      expect(every.map((u) => u.gid)).toEqual(expected);
      for (const user of every) expect(Object.keys(user).sort()).toEqual(P1);
    }
  });

  test('projects list with no params reads every project at once; a page size without a workspace is refused before any request', async () => {
    const fake = hub.sandbox.fakes.asana;
    const page = await list('projects');
    expect(page.data.map((p) => p.gid)).toEqual(fake.dataset.projects.map((project) => project.gid));
    expect(page.meta).toEqual({ has_more: false, next_page: null, next_cursor: null });
    expect(fake.requests.at(-1)!.query).toEqual({});
    const before = fake.requests.length;
    for (const params of [{ limit: 5 }, { offset: 'eyJ0' }, { archived: false, limit: 5 }]) {
      const error = await hub
        .asana()
        .execute('projects', 'list', params)
        .catch((e) => e);
      expect({ code: error.code, details: error.details }).toEqual({
        code: 'INVALID_PARAMS',
        details: [
          {
            path: '/limit',
            message:
              'rule projects-paging-scope: Asana pages projects only within a workspace or team: give workspace or team with limit or offset, or leave both out to read every project at once',
          },
        ],
      });
    }
    expect(fake.requests.length).toBe(before);
    const byTeam = await all('projects', { team: fake.anchors.teamGid, limit: 1 });
    expect(byTeam.map((p) => p.gid)).toEqual(fake.dataset.projects.filter((project) => project.teamGid === fake.anchors.teamGid).map((project) => project.gid));
    expect(fake.requests.at(-1)!.query).toMatchObject({ team: fake.anchors.teamGid, limit: '1' });
  });

  test('tasks list sends completed_since now as a date-time (GET /tasks takes no now), pages it, and refuses other words before any request', async () => {
    const fake = hub.sandbox.fakes.asana;
    const open = fake.dataset.project(bigProject)!.taskGids.filter((gid) => !fake.dataset.task(gid)!.completed);
    expect(open.length).toBeGreaterThan(300);
    const before = fake.requests.length;
    const every = await all('tasks', { project: bigProject, completed_since: 'now', limit: 100 });
    expect(every.map((t) => t.gid)).toEqual(open);
    const sent = fake.requests.slice(before);
    expect(sent.length).toBe(Math.ceil(open.length / 100));
    for (const request of sent) expect(request.query.completed_since).toBe('9999-12-31T23:59:59.999Z');
    // A date-time passes through unchanged.
    await list('tasks', { project: bigProject, completed_since: '2025-01-01T00:00:00Z', limit: 1 });
    expect(fake.requests.at(-1)!.query.completed_since).toBe('2025-01-01T00:00:00Z');
    const count = fake.requests.length;
    for (const [entity, scope] of [
      ['tasks', { project: bigProject }],
      ['project_tasks', { project_gid: bigProject }],
    ] as const) {
      const error = await hub
        .asana()
        .execute(entity, 'list', { ...scope, completed_since: 'yesterday' })
        .catch((e) => e);
      expect({ code: error.code, details: error.details }).toEqual({
        code: 'INVALID_PARAMS',
        details: [
          {
            path: '/completed_since',
            message: 'rule completed-since-format: completed_since is a date-time, e.g. 2025-06-01T00:00:00Z, or now (incomplete tasks only)',
          },
        ],
      });
    }
    expect(fake.requests.length).toBe(count);
  });

  test('attachment get carries size on every host: bytes for Asana files, null where Asana sends none', async () => {
    const fake = hub.sandbox.fakes.asana;
    const anchors = fake.anchors.attachments;
    for (const host of ['asana', 'dropbox', 'gdrive', 'box', 'external'] as const) {
      const one = (await hub.asana().execute('attachments', 'get', { attachment_gid: anchors[host] })) as RecordResult;
      expect(one.data.host).toBe(host);
      expect(one.data.size, host).toBe(host === 'asana' ? fake.dataset.attachment(anchors[host])!.sizeBytes : null);
    }
  });

  test('tags, subtasks, dependencies, dependents and task projects', async () => {
    const tags = await all('workspace_tags', { workspace_gid: premium });
    expect(tags.length).toBeGreaterThan(0);
    const tag = (await hub.asana().execute('tags', 'get', { tag_gid: tags[0]!.gid as string })) as RecordResult;
    expect(tag.data).toMatchObject({ gid: tags[0]!.gid, resource_type: 'tag', workspace: expect.any(Object) });
    const tasks = await all('project_tasks', { project_gid: bigProject });
    const checked = { subtasks: 0, dependencies: 0, dependents: 0 };
    for (const task of tasks.slice(0, 80)) {
      const full = (await hub.asana().execute('tasks', 'get', { task_gid: task.gid as string })) as RecordResult;
      const projects = await list('task_projects', { task_gid: task.gid as string });
      expect(projects.data.map((p) => p.gid)).toContain(bigProject);
      if ((full.data.num_subtasks as number) > 0) {
        const subtasks = await all('task_subtasks', { task_gid: task.gid as string });
        expect(subtasks).toHaveLength(full.data.num_subtasks as number);
        checked.subtasks++;
      }
      if ((full.data.dependencies as unknown[]).length > 0) {
        const dependencies = await all('task_dependencies', { task_gid: task.gid as string });
        expect(dependencies.map((d) => d.gid).sort()).toEqual((full.data.dependencies as Array<{ gid: string }>).map((d) => d.gid).sort());
        checked.dependencies++;
      }
      if ((full.data.dependents as unknown[]).length > 0) {
        const dependents = await all('task_dependents', { task_gid: task.gid as string });
        expect(dependents.map((d) => d.gid).sort()).toEqual((full.data.dependents as Array<{ gid: string }>).map((d) => d.gid).sort());
        checked.dependents++;
      }
    }
    expect(checked.subtasks).toBeGreaterThan(0);
    expect(checked.dependencies + checked.dependents).toBeGreaterThan(0);
  });

  test('an expired offset is the upstream 400, typed', async () => {
    const page = await list('project_tasks', { project_gid: bigProject, limit: 10 });
    hub.sandbox.fakes.asana.clock.advance(60 * 60 * 1000);
    const error = await hub
      .asana()
      .execute('project_tasks', 'list', { project_gid: bigProject, limit: 10, offset: page.meta.next_cursor })
      .catch((e) => e);
    expect(error.code).toBe('UPSTREAM_REJECTED');
    expect(error.upstream.status).toBe(400);
    expect(error.upstream.message).toMatch(/offset|pagination/i);
  });
});

describe('asana task search', () => {
  test('searching a premium workspace pages by created_at without gaps or repeats', async () => {
    const params = { workspace_gid: premium, completed: false, limit: 20 };
    const first = await list('workspace_task_search', params);
    expect(first.data).toHaveLength(20);
    expect(first.meta.has_more).toBe(true);
    const sent = hub.sandbox.fakes.asana.requests.at(-1)!;
    expect(sent.query).toMatchObject({ completed: 'false', sort_by: 'created_at', limit: '20' });
    const found = await all('workspace_task_search', params);
    expect(new Set(found.map((t) => t.gid)).size).toBe(found.length);
    const createdAt = found.map((t) => Date.parse(t.created_at as string));
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
    expect(found.length).toBeGreaterThan(20);
  });

  /** The fake's own tasks of the premium workspace that `keep` selects, in created_at order (ties by gid, as the fake sorts). */
  function expectedSearch(keep: (task: AsanaTask) => boolean, ascending: boolean): string[] {
    const direction = ascending ? 1 : -1;
    return hub.sandbox.fakes.asana.dataset
      .tasksOf(premium)
      .filter(keep)
      .sort((a, b) => (Date.parse(a.createdAt) - Date.parse(b.createdAt)) * direction || (a.gid < b.gid ? -direction : direction))
      .map((task) => task.gid);
  }

  test.each([false, true])('records() and execute page every match exactly once, sort_ascending %s', async (ascending) => {
    const params = { workspace_gid: premium, completed: false, sort_ascending: ascending, limit: 100 };
    const expected = expectedSearch((task) => !task.completed, ascending);
    expect(expected.length).toBeGreaterThan(300);
    expect((await all('workspace_task_search', params)).map((t) => t.gid)).toEqual(expected);
    // The same walk through execute, handing each page's next_cursor back as offset.
    const walked: string[] = [];
    let page = await list('workspace_task_search', params);
    for (;;) {
      walked.push(...page.data.map((t) => t.gid as string));
      // SPEC: task-management lists carry next_page; here it holds the same cursor.
      expect(page.meta.next_page).toEqual(page.meta.next_cursor === null ? null : { offset: page.meta.next_cursor });
      if (page.meta.next_cursor === null) break;
      page = await list('workspace_task_search', { ...params, offset: page.meta.next_cursor });
    }
    expect(walked).toEqual(expected);
    expect(page.meta.has_more).toBe(false);
  });

  test('tasks created in the same millisecond on both sides of a page boundary are each read once', async () => {
    const tasks = hub.sandbox.fakes.asana.dataset.tasksOf(premium);
    const tied = tasks.find((task) => tasks.filter((other) => other.createdAt === task.createdAt).length > 1)!;
    const at = Date.parse(tied.createdAt);
    const window = { 'created_at.after': new Date(at - 3 * 86_400_000).toISOString(), 'created_at.before': new Date(at + 3 * 86_400_000).toISOString() };
    const inWindow = (task: AsanaTask) => Date.parse(task.createdAt) > at - 3 * 86_400_000 && Date.parse(task.createdAt) < at + 3 * 86_400_000;
    for (const ascending of [false, true]) {
      const expected = expectedSearch(inWindow, ascending);
      expect(expected.filter((gid) => hub.sandbox.fakes.asana.dataset.task(gid)!.createdAt === tied.createdAt).length).toBeGreaterThan(1);
      // One task a page: the tied pair is split by a page boundary.
      const found = await all('workspace_task_search', { workspace_gid: premium, ...window, sort_ascending: ascending, limit: 1 });
      expect(found.map((t) => t.gid)).toEqual(expected);
    }
  });

  test('another order gives one page with has_more and no cursor; records() and offset refuse it before any request', async () => {
    const fake = hub.sandbox.fakes.asana;
    const params = { workspace_gid: premium, completed: false, sort_by: 'modified_at', limit: 5 };
    const page = await list('workspace_task_search', params);
    const byModified = fake.dataset
      .tasksOf(premium)
      .filter((task) => !task.completed)
      .sort((a, b) => Date.parse(b.modifiedAt) - Date.parse(a.modifiedAt) || (a.gid < b.gid ? 1 : -1));
    expect(page.data.map((t) => t.gid)).toEqual(byModified.slice(0, 5).map((task) => task.gid));
    expect(page.meta).toEqual({ has_more: true, next_page: null, next_cursor: null });
    const before = fake.requests.length;
    const walk = await all('workspace_task_search', params).catch((e) => e);
    expect({ code: walk.code, details: walk.details }).toEqual({
      code: 'INVALID_PARAMS',
      details: [{ path: '/sort_by', message: 'pages are read in created_at order only: leave sort_by out or set it to created_at' }],
    });
    const cursor = (await list('workspace_task_search', { workspace_gid: premium, completed: false, limit: 5 })).meta.next_cursor;
    const resumed = await hub
      .asana()
      .execute('workspace_task_search', 'list', { ...params, offset: cursor })
      .catch((e) => e);
    expect(resumed.details).toEqual([{ path: '/sort_by', message: 'pages are read in created_at order only: leave sort_by out or set it to created_at' }]);
    const forged = await hub
      .asana()
      .execute('workspace_task_search', 'list', { workspace_gid: premium, completed: false, offset: '2026-01-01T00:00:00Z' })
      .catch((e) => e);
    expect(forged.details).toEqual([{ path: '/offset', message: 'must be meta.next_cursor of the previous page, unchanged' }]);
    expect(fake.requests.length).toBe(before + 1);
  });

  test('a free workspace answers 402: FORBIDDEN with a clear message', async () => {
    const error = await hub
      .asana()
      .execute('workspace_task_search', 'list', { workspace_gid: free, text: 'x' })
      .catch((e) => e);
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('premium');
    expect(error.upstream).toMatchObject({ status: 402, message: 'Search is only available to premium users.' });
  });

  test('at least one search parameter', async () => {
    const none = await hub
      .asana()
      .execute('workspace_task_search', 'list', { workspace_gid: premium })
      .catch((e) => e);
    expect(none.details).toEqual([{ path: '/', message: expect.stringContaining('rule search-needs-a-filter') }]);
  });
});
