/**
 * Task lists: `GET /tasks`, `/projects/{gid}/tasks`, `/sections/{gid}/tasks` and the lists around
 * one task (API-NOTES B3).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { asanaError, badRequest, missingInput } from './errors.js';
import type { AsanaTask } from './model.js';
import { listResponse } from './paging.js';
import { completedSinceParam, dateTimeParam, queryValue, resolveProject, resolveSection, resolveTask, resolveUser, resolveWorkspace } from './params.js';

/** B3 [3p] php-asana #52, ruby-asana #38: the message of a `GET /tasks` without exactly one filter. */
export const TASKS_FILTER_MESSAGE = 'Must specify exactly one of project, tag, or assignee + workspace';

/**
 * B3: dependencies "may return 402 (premium feature)". The fake answers 402 for tasks of a
 * non-premium workspace; the message is [unverified].
 */
export const DEPENDENCIES_PREMIUM_MESSAGE = 'Task dependencies are only available to premium users.';

interface TaskFilters {
  /** Keep completed tasks only if completed at or after this time; Infinity (`now`) keeps incomplete ones only. */
  completedSince: number | undefined;
  modifiedSince: number | undefined;
}

function applyFilters(tasks: AsanaTask[], filters: TaskFilters): string[] {
  return tasks
    .filter((task) => {
      if (filters.completedSince !== undefined && task.completed) {
        if (task.completedAt === null || Date.parse(task.completedAt) < filters.completedSince) return false;
      }
      if (filters.modifiedSince !== undefined && Date.parse(task.modifiedAt) < filters.modifiedSince) return false;
      return true;
    })
    .map((task) => task.gid);
}

/**
 * `GET /tasks`: exactly one of `project`, `section`, or `assignee` + `workspace` (B3, B8; `tag` is
 * not a parameter of this operation in the spec and is ignored). No filter or more than one:
 * 400 "Must specify exactly one of project, tag, or assignee + workspace"; `assignee` without
 * `workspace`: 400 "workspace: Missing input" (B6 [doc]); `workspace` alone: the first message.
 * `completed_since` and `modified_since` narrow the list; both are date-times here (the spec
 * types `completed_since` of this operation as `format: date-time`, while the project and section
 * lists take the shared parameter that also accepts `now`), so `now` is a 400.
 * Why: the engine's `tasks` list renders exactly these combinations.
 */
export function listTasks(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const project = queryValue(req.query, 'project');
  const section = queryValue(req.query, 'section');
  const assignee = queryValue(req.query, 'assignee');
  const workspace = queryValue(req.query, 'workspace');
  const chosen = (project !== undefined ? 1 : 0) + (section !== undefined ? 1 : 0) + (assignee !== undefined || workspace !== undefined ? 1 : 0);
  if (chosen !== 1) return badRequest(TASKS_FILTER_MESSAGE);
  if (assignee !== undefined && workspace === undefined) return missingInput('workspace');
  if (workspace !== undefined && assignee === undefined) return badRequest(TASKS_FILTER_MESSAGE);
  const completedSince = dateTimeParam(req.query, 'completed_since');
  if (!completedSince.ok) return completedSince.response;
  const modifiedSince = dateTimeParam(req.query, 'modified_since');
  if (!modifiedSince.ok) return modifiedSince.response;
  const filters = { completedSince: completedSince.value, modifiedSince: modifiedSince.value };
  const { data } = ctx;
  let tasks: AsanaTask[];
  if (project !== undefined) {
    const found = resolveProject(data, 'project', project);
    if (!found.ok) return found.response;
    tasks = found.value.taskGids.map((gid) => data.task(gid)!);
  } else if (section !== undefined) {
    const found = resolveSection(data, 'section', section);
    if (!found.ok) return found.response;
    tasks = found.value.taskGids.map((gid) => data.task(gid)!);
  } else {
    const space = resolveWorkspace(data, 'workspace', workspace!);
    if (!space.ok) return space.response;
    const user = resolveUser(data, 'assignee', assignee!, ctx.records.meGid);
    if (!user.ok) return user.response;
    tasks = data.tasksOf(space.value.gid).filter((task) => task.assigneeGid === user.value.gid);
  }
  return listResponse(ctx, req, 'task', applyFilters(tasks, filters));
}

/** `GET /projects/{project_gid}/tasks` with `completed_since` (B3). */
export function listProjectTasks(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const project = resolveProject(ctx.data, 'project', req.params['project_gid'] ?? '');
  if (!project.ok) return project.response;
  const completedSince = completedSinceParam(req.query);
  if (!completedSince.ok) return completedSince.response;
  const tasks = project.value.taskGids.map((gid) => ctx.data.task(gid)!);
  return listResponse(ctx, req, 'task', applyFilters(tasks, { completedSince: completedSince.value, modifiedSince: undefined }));
}

/** `GET /sections/{section_gid}/tasks` with `completed_since` (B3). */
export function listSectionTasks(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const section = resolveSection(ctx.data, 'section', req.params['section_gid'] ?? '');
  if (!section.ok) return section.response;
  const completedSince = completedSinceParam(req.query);
  if (!completedSince.ok) return completedSince.response;
  const tasks = section.value.taskGids.map((gid) => ctx.data.task(gid)!);
  return listResponse(ctx, req, 'task', applyFilters(tasks, { completedSince: completedSince.value, modifiedSince: undefined }));
}

/** `GET /tasks/{task_gid}/projects`: the projects the task is in (B3). */
export function listTaskProjects(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const task = resolveTask(ctx.data, 'task', req.params['task_gid'] ?? '');
  if (!task.ok) return task.response;
  return listResponse(
    ctx,
    req,
    'project',
    task.value.memberships.map((membership) => membership.projectGid),
  );
}

/** `GET /tasks/{task_gid}/subtasks`: direct subtasks only (B3). */
export function listSubtasks(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const task = resolveTask(ctx.data, 'task', req.params['task_gid'] ?? '');
  if (!task.ok) return task.response;
  return listResponse(ctx, req, 'task', task.value.subtaskGids);
}

/**
 * `GET /tasks/{task_gid}/dependencies` and `/dependents` (B3); 402 for tasks of a non-premium
 * workspace ("may return 402 (premium feature)").
 */
export function listTaskLinks(ctx: AsanaContext, req: FakeRequest, which: 'dependencies' | 'dependents'): FakeResponse {
  const task = resolveTask(ctx.data, 'task', req.params['task_gid'] ?? '');
  if (!task.ok) return task.response;
  if (!ctx.data.workspace(task.value.workspaceGid)?.premium) return asanaError(402, DEPENDENCIES_PREMIUM_MESSAGE);
  return listResponse(ctx, req, 'task', which === 'dependencies' ? task.value.dependencyGids : task.value.dependentGids);
}
