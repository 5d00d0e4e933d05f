/**
 * The task-search parameters the fake supports (API-NOTES B3/B4; spec
 * `GET /workspaces/{workspace_gid}/tasks/search`), turned into one predicate.
 */
import { listParam, type ParamMap } from '../param-map.js';
import type { AsanaDataset } from './dataset.js';
import type { AsanaTask } from './model.js';
import { booleanParam, dateParam, dateTimeParam, queryValue, type Parsed } from './params.js';
import { badRequest } from './errors.js';

/** A task predicate. */
export type TaskPredicate = (task: AsanaTask) => boolean;

const SUBTYPES = new Set(['default_task', 'milestone', 'approval', 'custom']);

/**
 * Builds the filter of a search request. Supported: `text` (case-insensitive, in name or notes),
 * `resource_subtype` (no default: all subtypes unless given; the spec's `milestone` default is
 * taken as a spec artefact, API-NOTES C7 [unverified]), `completed`, `is_subtask`, `has_attachment`,
 * `is_blocked`, `is_blocking`, `assignee.any/.not` (gids, `me` or `null`), `projects.any/.not/.all`,
 * `sections.any/.not/.all` (`projects.any` with `sections.any` is their union, B4), `tags.any/.not`,
 * `teams.any`, `followers.any/.not`, `created_by.any/.not`, `created_at.*`, `modified_at.*`,
 * `completed_at.*` (`.after`/`.before`, date-times), `due_on`, `due_on.after/.before` (dates).
 * Other spec parameters are accepted and ignored.
 * Why: SPEC.md's `workspace_task_search` passes these through.
 */
export function searchPredicate(data: AsanaDataset, query: ParamMap, meGid: string): Parsed<TaskPredicate> {
  const checks: TaskPredicate[] = textChecks(query);
  const parts: Parsed<TaskPredicate[]>[] = [
    subtypeChecks(query),
    flagChecks(data, query),
    { ok: true, value: [...assigneeChecks(query, meGid), ...membershipChecks(data, query, meGid), ...peopleChecks(query, meGid)] },
    dateTimeChecks(query),
    dueOnChecks(query),
  ];
  // The first bad parameter in this order is the one reported.
  for (const part of parts) {
    if (!part.ok) return part;
    checks.push(...part.value);
  }
  return { ok: true, value: (task) => checks.every((check) => check(task)) };
}

const fail = (message: string): Parsed<TaskPredicate[]> => ({ ok: false, response: badRequest(message) });

/** `text`: case-insensitive, in name or notes. */
function textChecks(query: ParamMap): TaskPredicate[] {
  const text = queryValue(query, 'text')?.toLowerCase();
  return text === undefined ? [] : [(task) => task.name.toLowerCase().includes(text) || task.notes.toLowerCase().includes(text)];
}

/** `resource_subtype`: one of the four subtypes. */
function subtypeChecks(query: ParamMap): Parsed<TaskPredicate[]> {
  const subtype = queryValue(query, 'resource_subtype');
  if (subtype === undefined) return { ok: true, value: [] };
  if (!SUBTYPES.has(subtype)) return fail(`resource_subtype: Not a valid enum value: ${subtype}`);
  return { ok: true, value: [(task) => task.resourceSubtype === subtype] };
}

/** The boolean filters: `completed`, `is_subtask`, `has_attachment`, `is_blocked`, `is_blocking`. */
function flagChecks(data: AsanaDataset, query: ParamMap): Parsed<TaskPredicate[]> {
  const checks: TaskPredicate[] = [];
  for (const [name, test] of [
    ['completed', (task: AsanaTask) => task.completed],
    ['is_subtask', (task: AsanaTask) => task.parentGid !== null],
    ['has_attachment', (task: AsanaTask) => task.attachmentGids.length > 0],
    ['is_blocked', (task: AsanaTask) => task.dependencyGids.some((gid) => !data.task(gid)?.completed)],
    ['is_blocking', (task: AsanaTask) => !task.completed && task.dependentGids.some((gid) => !data.task(gid)?.completed)],
  ] as const) {
    const flag = booleanParam(query, name);
    if (!flag.ok) return flag;
    if (flag.value !== undefined) {
      const wanted = flag.value;
      checks.push((task) => test(task) === wanted);
    }
  }
  return { ok: true, value: checks };
}

/** A list parameter's gids with `me` read as the token's user; undefined when absent or empty. */
function gidList(query: ParamMap, name: string, meGid: string): string[] | undefined {
  const values = listParam(query, name);
  return values && values.length > 0 ? values.map((value) => (value === 'me' ? meGid : value)) : undefined;
}

/** `assignee.any` / `assignee.not` (the gid `null` matches unassigned tasks). */
function assigneeChecks(query: ParamMap, meGid: string): TaskPredicate[] {
  const checks: TaskPredicate[] = [];
  const assigneeAny = gidList(query, 'assignee.any', meGid);
  if (assigneeAny) checks.push((task) => assigneeAny.includes(task.assigneeGid ?? 'null'));
  const assigneeNot = gidList(query, 'assignee.not', meGid);
  if (assigneeNot) checks.push((task) => !assigneeNot.includes(task.assigneeGid ?? 'null'));
  return checks;
}

const projectsOf = (task: AsanaTask): string[] => task.memberships.map((membership) => membership.projectGid);
const sectionsOf = (task: AsanaTask): string[] => task.memberships.map((membership) => membership.sectionGid);

/** `projects.*`, `sections.*`, `tags.*`, `followers.*` and `teams.any`. */
function membershipChecks(data: AsanaDataset, query: ParamMap, meGid: string): TaskPredicate[] {
  const ids = (name: string): string[] | undefined => gidList(query, name, meGid);
  const checks: TaskPredicate[] = [];
  const projectsAny = ids('projects.any');
  const sectionsAny = ids('sections.any');
  if (projectsAny || sectionsAny) {
    // B4 [spec]: projects.any combined with sections.any returns the union of both.
    checks.push((task) => projectsOf(task).some((gid) => projectsAny?.includes(gid)) || sectionsOf(task).some((gid) => sectionsAny?.includes(gid)));
  }
  for (const [name, of] of [
    ['projects', projectsOf],
    ['sections', sectionsOf],
    ['tags', (task: AsanaTask) => task.tagGids],
    ['followers', (task: AsanaTask) => task.followerGids],
  ] as const) {
    const all = ids(`${name}.all`);
    if (all) checks.push((task) => all.every((gid) => of(task).includes(gid)));
    const not = ids(`${name}.not`);
    if (not) checks.push((task) => !of(task).some((gid) => not.includes(gid)));
  }
  const tagsAny = ids('tags.any');
  if (tagsAny) checks.push((task) => task.tagGids.some((gid) => tagsAny.includes(gid)));
  const followersAny = ids('followers.any');
  if (followersAny) checks.push((task) => task.followerGids.some((gid) => followersAny.includes(gid)));
  const teamsAny = ids('teams.any');
  if (teamsAny) checks.push((task) => projectsOf(task).some((gid) => teamsAny.includes(data.project(gid)?.teamGid ?? '')));
  return checks;
}

/** `created_by.any` / `created_by.not`. */
function peopleChecks(query: ParamMap, meGid: string): TaskPredicate[] {
  const checks: TaskPredicate[] = [];
  const createdByAny = gidList(query, 'created_by.any', meGid);
  if (createdByAny) checks.push((task) => createdByAny.includes(task.createdByGid));
  const createdByNot = gidList(query, 'created_by.not', meGid);
  if (createdByNot) checks.push((task) => !createdByNot.includes(task.createdByGid));
  return checks;
}

/** `created_at.*`, `modified_at.*`, `completed_at.*` (`.after`/`.before`, date-times, exclusive). */
function dateTimeChecks(query: ParamMap): Parsed<TaskPredicate[]> {
  const checks: TaskPredicate[] = [];
  for (const field of ['created_at', 'modified_at', 'completed_at'] as const) {
    const read = (task: AsanaTask): number | undefined => {
      const value = field === 'created_at' ? task.createdAt : field === 'modified_at' ? task.modifiedAt : task.completedAt;
      return value === null ? undefined : Date.parse(value);
    };
    const after = dateTimeParam(query, `${field}.after`);
    if (!after.ok) return after;
    const before = dateTimeParam(query, `${field}.before`);
    if (!before.ok) return before;
    const from = after.value;
    const to = before.value;
    if (from !== undefined) checks.push((task) => (read(task) ?? Number.NEGATIVE_INFINITY) > from);
    if (to !== undefined) checks.push((task) => (read(task) ?? Number.POSITIVE_INFINITY) < to);
  }
  return { ok: true, value: checks };
}

/** `due_on`, `due_on.after`, `due_on.before` (dates; tasks without a due date never match a range). */
function dueOnChecks(query: ParamMap): Parsed<TaskPredicate[]> {
  const dueOn = dateParam(query, 'due_on');
  if (!dueOn.ok) return dueOn;
  const dueAfter = dateParam(query, 'due_on.after');
  if (!dueAfter.ok) return dueAfter;
  const dueBefore = dateParam(query, 'due_on.before');
  if (!dueBefore.ok) return dueBefore;
  const checks: TaskPredicate[] = [];
  if (dueOn.value !== undefined) checks.push((task) => task.dueOn === dueOn.value);
  if (dueAfter.value !== undefined) checks.push((task) => task.dueOn !== null && task.dueOn > dueAfter.value!);
  if (dueBefore.value !== undefined) checks.push((task) => task.dueOn !== null && task.dueOn < dueBefore.value!);
  return { ok: true, value: checks };
}
