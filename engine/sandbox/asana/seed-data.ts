/**
 * Deterministic seed of the Asana fake: a premium organization and a free workspace, their users,
 * teams, projects (some archived), sections, tasks with subtasks and dependencies, tags and
 * attachments on every host (API-NOTES B3, B5).
 */
import { createPrng, type Prng } from '../prng.js';
import { AsanaDataset, type AsanaAnchors } from './dataset.js';
import type { AsanaAttachment, AsanaCustomField, AsanaProject, AsanaTask, AsanaTeam, AsanaUser, AsanaWorkspace, AttachmentHost } from './model.js';
import {
  ATTACHMENT_FILES,
  COLORS,
  FIRST_NAMES,
  FREE_PROJECT_NAMES,
  FREE_TAGS,
  ICONS,
  LAST_NAMES,
  NOTE_SENTENCES,
  PREMIUM_TAGS,
  PROJECT_NAMES,
  SECTION_NAMES,
  TASK_OBJECTS,
  TASK_VERBS,
  TEAM_NAMES,
} from './seed-values.js';

/** Bytes of the one large `asana` attachment: exactly 200 MiB, streamed, never held in memory. */
export const LARGE_ATTACHMENT_SIZE = 200 * 1024 * 1024;
/** Bytes of the anchor `asana` attachment: over 1 MiB and not a multiple of any chunk size. */
export const ANCHOR_ATTACHMENT_SIZE = 1_062_913;
/** The premium organization's email domain. */
export const PREMIUM_EMAIL_DOMAIN = 'acme-robotics.example';

const DAY = 86_400_000;
const TIMELINE_START = Date.UTC(2023, 0, 2);
const TIMELINE_END = Date.UTC(2025, 5, 1);
const SEED_NOW = Date.UTC(2025, 5, 30, 12);

/** How many objects of each kind a `records` value gives. */
export interface AsanaSeedPlan {
  /** Users of the premium organization (`me` included). */
  premiumUsers: number;
  /** Projects of the premium organization (two archived). */
  premiumProjects: number;
  /** Top-level tasks of the big project. */
  bigProjectTasks: number;
  /** Top-level tasks of the other premium projects together. */
  otherPremiumTasks: number;
  /** Top-level tasks of the free workspace's projects. */
  freeProjectTasks: number;
  /** Tasks of the free workspace in no project (assigned to `me`). */
  freeLooseTasks: number;
  /** Attachments, anchors included. */
  attachments: number;
}

/**
 * The volumes for `records` (the premium organization's top-level task count): half of them in
 * the big project, so that with the default 1200 it holds 600 tasks and a list of it without
 * `limit` is "too large" (B2, threshold 500).
 * Why: `--records N` sets the size of the largest collections (DESIGN.md §8).
 */
export function asanaSeedPlan(records: number): AsanaSeedPlan {
  if (!Number.isInteger(records) || records < 1) throw new RangeError(`records must be a positive integer, got ${records}`);
  const bigProjectTasks = Math.max(4, Math.floor(records / 2));
  return {
    premiumUsers: Math.max(8, Math.round(records / 30)),
    premiumProjects: Math.max(4, Math.min(PROJECT_NAMES.length, Math.round(records / 100))),
    bigProjectTasks,
    otherPremiumTasks: Math.max(6, records - bigProjectTasks),
    freeProjectTasks: Math.max(6, Math.round(records / 20)),
    freeLooseTasks: Math.max(2, Math.round(records / 100)),
    attachments: Math.max(10, Math.round(records / 10)),
  };
}

/** Hands out unique, ascending, Asana-looking (16-digit) gids. */
class GidSource {
  private next: number;

  constructor(private readonly rng: Prng) {
    this.next = 1_201_000_000_000_000 + rng.int(0, 999_999) * 1000;
  }

  take(): string {
    this.next += this.rng.int(1, 97);
    return String(this.next);
  }
}

interface SeedState {
  rng: Prng;
  gids: GidSource;
  data: AsanaDataset;
}

/** The premium organization and the free personal workspace. */
interface Workspaces {
  premium: AsanaWorkspace;
  free: AsanaWorkspace;
}

/** The projects of both workspaces, in creation order. */
interface SeededProjects {
  premium: AsanaProject[];
  free: AsanaProject[];
}

/**
 * Builds the dataset for `records` and `seed`.
 * Why: every request to the fake reads this one deterministic store.
 */
export function seedAsanaData(records: number, seed: number): AsanaDataset {
  const plan = asanaSeedPlan(records);
  const rng = createPrng(seed ^ 0x0a5a4a);
  const state: SeedState = { rng, gids: new GidSource(rng), data: new AsanaDataset() };
  const workspaces = seedWorkspaces(state);
  const { premium, free } = workspaces;
  const users = seedUsers(state, plan, premium, free);
  const me = users[0]!;
  const teams = seedTeams(state, premium, users);
  const fields = seedCustomFields(state, premium);
  const premiumTags = seedTags(state, premium, PREMIUM_TAGS, users);
  const freeTags = seedTags(state, free, FREE_TAGS, [me]);
  const premiumContext = taskContext(premium, state.data.membersOf(premium.gid), premiumTags, fields);
  const freeContext = taskContext(free, state.data.membersOf(free.gid), freeTags, []);
  const projects = seedAllProjects(state, plan, teams, premiumContext, freeContext);
  seedAllTasks(state, plan, { premiumContext, freeContext, projects, me });
  const bigProject = projects.premium[0]!;
  const bigTasks = bigProject.taskGids.map((gid) => state.data.task(gid)!);
  const multiHomed = shareWithSecondProject(state.data, bigTasks, projects.premium[1]!);
  seedDependencies(state.data, projects.premium);
  const subtaskParents = seedSubtasks(state, premiumContext, projects.premium, freeContext, projects.free);
  const attachmentAnchors = seedAttachments(state, plan, bigTasks, projects.premium, projects.free);
  state.data.setAnchors({
    ...workspaceAnchors(workspaces, users, teams, projects),
    tagGid: premiumTags[0]!,
    taskWithSubtasksGid: subtaskParents,
    taskWithDependenciesGid: bigTasks[3]!.gid,
    taskWithDependentsGid: bigTasks[1]!.gid,
    multiHomedTaskGid: multiHomed[0]!.gid,
    freeTaskGid: projects.free[0]!.taskGids[0]!,
    attachments: attachmentAnchors,
  });
  return state.data;
}

/** The two workspaces, premium first (their gids are the first two taken). */
function seedWorkspaces(state: SeedState): Workspaces {
  const premium: AsanaWorkspace = {
    gid: state.gids.take(),
    name: 'Acme Robotics',
    isOrganization: true,
    emailDomains: [PREMIUM_EMAIL_DOMAIN],
    premium: true,
  };
  const free: AsanaWorkspace = { gid: state.gids.take(), name: 'Personal Projects', isOrganization: false, emailDomains: [], premium: false };
  state.data.add('workspace', premium);
  state.data.add('workspace', free);
  return { premium, free };
}

/** The premium projects (the last two archived, teams in turn) and then the free ones, with the workspaces' members and fields. */
function seedAllProjects(state: SeedState, plan: AsanaSeedPlan, teams: AsanaTeam[], premiumContext: TaskContext, freeContext: TaskContext): SeededProjects {
  const { workspace: premiumWorkspace, members: premiumMembers, customFields: fields } = premiumContext;
  const premium: AsanaProject[] = [];
  for (let index = 0; index < plan.premiumProjects; index += 1) {
    const archived = index >= plan.premiumProjects - 2;
    premium.push(seedProject(state, premiumWorkspace, PROJECT_NAMES[index]!, teams[index % teams.length]!, premiumMembers, fields, archived, index));
  }
  const free = FREE_PROJECT_NAMES.map((name, index) => seedProject(state, freeContext.workspace, name, undefined, freeContext.members, [], false, index));
  return { premium, free };
}

/** A fresh task context of one workspace (its own task counter). */
function taskContext(workspace: AsanaWorkspace, members: AsanaUser[], tags: string[], customFields: AsanaCustomField[]): TaskContext {
  return { workspace, members, tagGids: tags, customFields, counter: { value: 0 } };
}

/** What the top-level tasks are spread over. */
interface TaskTargets {
  premiumContext: TaskContext;
  freeContext: TaskContext;
  projects: SeededProjects;
  me: AsanaUser;
}

/** Top-level tasks: the big project's share, the rest split evenly, then my free tasks in no project. */
function seedAllTasks(state: SeedState, plan: AsanaSeedPlan, targets: TaskTargets): void {
  const { premiumContext, freeContext, projects } = targets;
  seedProjectTasks(state, premiumContext, projects.premium[0]!, plan.bigProjectTasks);
  const others = projects.premium.slice(1);
  others.forEach((project, index) => seedProjectTasks(state, premiumContext, project, evenShare(plan.otherPremiumTasks, others.length, index)));
  projects.free.forEach((project, index) => seedProjectTasks(state, freeContext, project, evenShare(plan.freeProjectTasks, projects.free.length, index)));
  for (let index = 0; index < plan.freeLooseTasks; index += 1) {
    const task = newTask(state, freeContext, undefined, targets.me);
    state.data.add('task', task);
  }
}

/** Part `index` of `total` split into `parts` near-equal shares (the first ones one larger). */
function evenShare(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

/** Every 50th task of the big project from the eighth (up to ten) is also in the second project. */
function shareWithSecondProject(data: AsanaDataset, bigTasks: AsanaTask[], secondProject: AsanaProject): AsanaTask[] {
  const multiHomed: AsanaTask[] = [];
  const firstShared = Math.min(7, bigTasks.length - 1);
  bigTasks.forEach((task, index) => {
    if (index >= firstShared && (index - firstShared) % 50 === 0 && multiHomed.length < 10) {
      addToProject(data, task, secondProject, secondProject.sectionGids[0]!);
      multiHomed.push(task);
    }
  });
  return multiHomed;
}

/** The anchors of workspaces, people and projects: me, another user with a photo, my team. */
function workspaceAnchors(workspaces: Workspaces, users: AsanaUser[], teams: AsanaTeam[], projects: SeededProjects) {
  const me = users[0]!;
  const team = teams.find((candidate) => candidate.memberGids.includes(me.gid)) ?? teams[0]!;
  const otherUser = users.find((user) => user !== me && user.hasPhoto && user.workspaceGids.includes(workspaces.premium.gid))!;
  const bigProject = projects.premium[0]!;
  return {
    premiumWorkspaceGid: workspaces.premium.gid,
    freeWorkspaceGid: workspaces.free.gid,
    meGid: me.gid,
    meEmail: me.email,
    userGid: otherUser.gid,
    userEmail: otherUser.email,
    teamGid: team.gid,
    bigProjectGid: bigProject.gid,
    sectionGid: bigProject.sectionGids[0]!,
    archivedProjectGid: projects.premium[projects.premium.length - 1]!.gid,
    freeProjectGid: projects.free[0]!.gid,
  };
}

/* ------------------------------------------------------------------ users, teams, fields, tags */

function asciiSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/ł/gi, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function seedUsers(state: SeedState, plan: AsanaSeedPlan, premium: AsanaWorkspace, free: AsanaWorkspace): AsanaUser[] {
  const { rng, data } = state;
  const users: AsanaUser[] = [];
  const emails = new Set<string>();
  const makeUser = (domain: string, workspaceGids: string[], forcePhoto: boolean): AsanaUser => {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    let local = `${asciiSlug(first)}.${asciiSlug(last)}`.replace(/-/g, '');
    for (let suffix = 2; emails.has(`${local}@${domain}`); suffix += 1) local = `${asciiSlug(first)}.${asciiSlug(last)}${suffix}`.replace(/-/g, '');
    const email = `${local}@${domain}`;
    emails.add(email);
    const user: AsanaUser = { gid: state.gids.take(), name: `${first} ${last}`, email, hasPhoto: forcePhoto || rng.chance(0.75), workspaceGids };
    data.add('user', user);
    return user;
  };
  for (let index = 0; index < plan.premiumUsers; index += 1) {
    // `me` and the first three colleagues also belong to the free workspace.
    const inFree = index < 4;
    users.push(makeUser(PREMIUM_EMAIL_DOMAIN, inFree ? [premium.gid, free.gid] : [premium.gid], index <= 1));
  }
  for (let index = 0; index < 3; index += 1) users.push(makeUser('example.com', [free.gid], false));
  return users;
}

function seedTeams(state: SeedState, organization: AsanaWorkspace, users: AsanaUser[]): AsanaTeam[] {
  const { rng, data } = state;
  const members = users.filter((user) => user.workspaceGids.includes(organization.gid));
  const visibilities: AsanaTeam['visibility'][] = ['public', 'request_to_join', 'secret'];
  const teams = TEAM_NAMES.map(([name, description], index): AsanaTeam => {
    const team: AsanaTeam = {
      gid: state.gids.take(),
      name,
      description,
      organizationGid: organization.gid,
      visibility: visibilities[index % visibilities.length]!,
      endorsed: index === 0,
      memberGids: [],
    };
    data.add('team', team);
    return team;
  });
  members.forEach((user, index) => {
    // `me` (index 0) is in the first three teams; everyone else in one or two.
    const count = index === 0 ? 3 : rng.int(1, 2);
    const first = index === 0 ? 0 : rng.int(0, teams.length - 1);
    for (let k = 0; k < count; k += 1) {
      const team = teams[(first + k) % teams.length]!;
      if (!team.memberGids.includes(user.gid)) team.memberGids.push(user.gid);
    }
  });
  return teams;
}

function seedCustomFields(state: SeedState, workspace: AsanaWorkspace): AsanaCustomField[] {
  const priority: AsanaCustomField = {
    gid: state.gids.take(),
    name: 'Priority',
    type: 'enum',
    workspaceGid: workspace.gid,
    enumOptions: [
      { gid: state.gids.take(), name: 'Low', color: 'blue' },
      { gid: state.gids.take(), name: 'Medium', color: 'yellow' },
      { gid: state.gids.take(), name: 'High', color: 'red' },
    ],
    precision: 0,
  };
  const estimate: AsanaCustomField = {
    gid: state.gids.take(),
    name: 'Estimate (h)',
    type: 'number',
    workspaceGid: workspace.gid,
    enumOptions: [],
    precision: 1,
  };
  const ticket: AsanaCustomField = { gid: state.gids.take(), name: 'Ticket', type: 'text', workspaceGid: workspace.gid, enumOptions: [], precision: 0 };
  for (const field of [priority, estimate, ticket]) state.data.add('custom_field', field);
  return [priority, estimate, ticket];
}

function seedTags(state: SeedState, workspace: AsanaWorkspace, names: readonly string[], followers: AsanaUser[]): string[] {
  const { rng, data } = state;
  return names.map((name, index) => {
    const gid = state.gids.take();
    data.add('tag', {
      gid,
      name,
      color: index % 4 === 3 ? null : rng.pick(COLORS),
      notes: index === 0 ? `Use “${name}” sparingly.` : '',
      createdAt: iso(TIMELINE_START + rng.int(0, 60) * DAY + rng.int(0, DAY - 1)),
      workspaceGid: workspace.gid,
      followerGids: index % 2 === 0 ? [followers[0]!.gid] : [],
    });
    return gid;
  });
}

/* ------------------------------------------------------------------ projects and sections */

function seedProject(
  state: SeedState,
  workspace: AsanaWorkspace,
  name: string,
  team: AsanaTeam | undefined,
  members: AsanaUser[],
  fields: AsanaCustomField[],
  archived: boolean,
  index: number,
): AsanaProject {
  const { rng, data } = state;
  const createdMs = TIMELINE_START + rng.int(0, 120) * DAY + rng.int(0, DAY - 1);
  const owner = team ? (members.find((user) => team.memberGids.includes(user.gid)) ?? members[0]!) : members[0]!;
  const projectMembers = unique([owner.gid, ...pickSome(rng, members, rng.int(1, 5)).map((user) => user.gid)]);
  const completed = archived && index % 2 === 1;
  const dueMs = rng.chance(0.6) ? createdMs + rng.int(90, 500) * DAY : undefined;
  const privacy: AsanaProject['privacySetting'] = team ? rng.pick(['public_to_workspace', 'public_to_workspace', 'private_to_team'] as const) : 'private';
  const gid = state.gids.take();
  const status =
    rng.chance(0.5) || index === 0
      ? {
          gid: state.gids.take(),
          updateGid: state.gids.take(),
          title: index === 0 ? 'On track for the Q3 launch' : 'Weekly status',
          text: 'Milestones met; two risks tracked in the board.',
          color: rng.pick(['green', 'yellow', 'red'] as const),
          authorGid: owner.gid,
          createdAt: iso(SEED_NOW - rng.int(1, 30) * DAY),
          modifiedAt: iso(SEED_NOW - rng.int(0, 1) * DAY),
        }
      : null;
  const project: AsanaProject = {
    gid,
    name,
    workspaceGid: workspace.gid,
    teamGid: team?.gid ?? null,
    archived,
    completed,
    completedAt: completed ? iso(TIMELINE_END - rng.int(10, 60) * DAY) : null,
    completedByGid: completed ? owner.gid : null,
    color: index % 5 === 4 ? null : rng.pick(COLORS),
    icon: index % 3 === 2 ? null : rng.pick(ICONS),
    createdAt: iso(createdMs),
    modifiedAt: iso(Math.min(SEED_NOW, createdMs + rng.int(30, 800) * DAY)),
    dueOn: dueMs !== undefined ? isoDate(dueMs) : null,
    startOn: dueMs !== undefined && rng.chance(0.5) ? isoDate(createdMs + 7 * DAY) : null,
    notes: index === 0 ? 'Everything the platform team ships this year. Ask in #platform.' : rng.pick(NOTE_SENTENCES),
    ownerGid: index === 1 && !team ? null : owner.gid,
    memberGids: projectMembers,
    followerGids: projectMembers.slice(0, 2),
    privacySetting: privacy,
    defaultView: rng.pick(['list', 'board', 'calendar', 'timeline'] as const),
    defaultAccessLevel: rng.pick(['admin', 'editor', 'commenter', 'viewer'] as const),
    minimumAccessLevelForCustomization: rng.pick(['admin', 'editor'] as const),
    minimumAccessLevelForSharing: rng.pick(['admin', 'editor'] as const),
    currentStatus: status,
    customFieldGids: fields.map((field) => field.gid),
    sectionGids: [],
    taskGids: [],
  };
  data.add('project', project);
  const sectionCount = rng.int(3, SECTION_NAMES.length);
  const names = sectionCount === SECTION_NAMES.length ? [...SECTION_NAMES] : [...SECTION_NAMES.slice(0, sectionCount - 1), 'Done'];
  for (const sectionName of names) {
    const section = { gid: state.gids.take(), name: sectionName, projectGid: gid, createdAt: iso(createdMs + rng.int(0, 3600_000)), taskGids: [] };
    data.add('section', section);
    project.sectionGids.push(section.gid);
  }
  return project;
}

/* ------------------------------------------------------------------ tasks */

interface TaskContext {
  workspace: AsanaWorkspace;
  members: AsanaUser[];
  tagGids: string[];
  customFields: AsanaCustomField[];
  counter: { value: number };
}

function seedProjectTasks(state: SeedState, ctx: TaskContext, project: AsanaProject, count: number): void {
  const { rng, data } = state;
  const sections = project.sectionGids.map((gid) => data.section(gid)!);
  const done = sections[sections.length - 1]!;
  const open = sections.slice(0, -1);
  for (let created = 0; created < count; created += 1) {
    const task = newTask(state, ctx, project, undefined);
    // Completed tasks sit in the last section, so a project's first tasks (the anchors) are open work.
    const section = task.completed ? done : rng.pick(open);
    data.add('task', task);
    addToProject(data, task, project, section.gid);
  }
  // Tasks list in section order (B3: a project's task list follows its board/list order).
  project.taskGids = sections.flatMap((section) => section.taskGids);
}

function setIncomplete(task: AsanaTask): void {
  task.completed = false;
  task.completedAt = null;
  task.completedByGid = null;
  if (task.approvalStatus !== null) task.approvalStatus = 'pending';
}

function addToProject(data: AsanaDataset, task: AsanaTask, project: AsanaProject, sectionGid: string): void {
  task.memberships.push({ projectGid: project.gid, sectionGid });
  data.section(sectionGid)!.taskGids.push(task.gid);
  if (task.memberships.length > 1) {
    project.taskGids = project.sectionGids.flatMap((gid) => data.section(gid)!.taskGids);
  }
}

function newTask(state: SeedState, ctx: TaskContext, project: AsanaProject | undefined, assignee: AsanaUser | undefined): AsanaTask {
  const { rng } = state;
  const n = ctx.counter.value;
  ctx.counter.value += 1;
  const createdMs = TIMELINE_START + Math.floor(rng.next() * (TIMELINE_END - TIMELINE_START));
  const modifiedMs = Math.min(SEED_NOW, createdMs + rng.int(0, 120) * DAY + rng.int(0, DAY - 1));
  const roll = rng.next();
  const subtype: AsanaTask['resourceSubtype'] = roll < 0.06 ? 'milestone' : roll < 0.09 ? 'approval' : 'default_task';
  const completed = project?.completed === true || rng.chance(0.35);
  const creator = rng.pick(ctx.members);
  const assigned = assignee ?? (rng.chance(0.8) ? rng.pick(ctx.members) : undefined);
  const completedMs = completed ? createdMs + Math.floor((modifiedMs - createdMs) * rng.next()) : undefined;
  const dueMs = rng.chance(0.6) ? createdMs + rng.int(7, 90) * DAY : undefined;
  const withTime = dueMs !== undefined && rng.chance(0.2);
  const note = rng.pick(NOTE_SENTENCES);
  const likers = rng.chance(0.15) ? pickSome(rng, ctx.members, rng.int(1, 2)).map((user) => user.gid) : [];
  const customValues = ctx.customFields.map((field) => ({
    fieldGid: field.gid,
    value:
      field.type === 'enum'
        ? rng.chance(0.7)
          ? rng.pick(field.enumOptions).gid
          : null
        : field.type === 'number'
          ? rng.chance(0.5)
            ? rng.int(1, 80) / 2
            : null
          : rng.chance(0.3)
            ? `SUP-${rng.int(1000, 9999)}`
            : null,
  }));
  return {
    gid: state.gids.take(),
    name: `${rng.pick(TASK_VERBS)} ${rng.pick(TASK_OBJECTS)}${project ? '' : ' (personal)'} #${n + 1}`,
    resourceSubtype: subtype,
    workspaceGid: ctx.workspace.gid,
    createdByGid: creator.gid,
    assigneeGid: assigned?.gid ?? null,
    assignedByGid: assigned ? (rng.chance(0.5) ? creator.gid : assigned.gid) : null,
    assigneeStatus: assigned ? rng.pick(['today', 'upcoming', 'later', 'inbox'] as const) : 'upcoming',
    approvalStatus:
      subtype === 'approval' ? (completed ? rng.pick(['approved', 'rejected'] as const) : rng.pick(['pending', 'changes_requested'] as const)) : null,
    completed,
    completedAt: completedMs !== undefined ? iso(completedMs) : null,
    completedByGid: completed ? (assigned?.gid ?? creator.gid) : null,
    createdAt: iso(createdMs),
    modifiedAt: iso(modifiedMs),
    dueOn: dueMs !== undefined ? isoDate(dueMs) : null,
    dueAt: withTime && dueMs !== undefined ? iso(Math.floor(dueMs / DAY) * DAY + 17 * 3600_000) : null,
    startOn: dueMs !== undefined && !withTime && rng.chance(0.2) ? isoDate(dueMs - rng.int(1, 6) * DAY) : null,
    notes: note,
    parentGid: null,
    subtaskGids: [],
    dependencyGids: [],
    dependentGids: [],
    memberships: [],
    tagGids: rng.chance(0.25) ? pickSome(rng, ctx.tagGids, rng.int(1, 2)) : [],
    followerGids: unique([creator.gid, ...(assigned ? [assigned.gid] : [])]),
    likerGids: likers,
    customValues,
    external: rng.chance(0.02) ? { gid: `crm-${rng.int(10_000, 99_999)}`, data: '{"source":"crm","synced":true}' } : null,
    actualTimeMinutes: ctx.workspace.premium && rng.chance(0.1) ? rng.int(15, 600) : null,
    attachmentGids: [],
  };
}

/**
 * Every 20th task of each premium project (from the fourth) depends on the two tasks before it in
 * the project's order; the big project's fourth task is the anchor. Dependencies are a premium
 * feature (B3: the routes may answer 402), so the free workspace has none.
 */
function seedDependencies(data: AsanaDataset, projects: AsanaProject[]): void {
  for (const project of projects) {
    project.taskGids.forEach((gid, index) => {
      if (index % 20 !== 3) return;
      const task = data.task(gid)!;
      for (const blockerGid of [project.taskGids[index - 2]!, project.taskGids[index - 1]!]) {
        const blocker = data.task(blockerGid)!;
        if (task.dependencyGids.includes(blocker.gid) || blocker === task) continue;
        task.dependencyGids.push(blocker.gid);
        blocker.dependentGids.push(task.gid);
      }
    });
  }
}

/**
 * One in twelve project tasks gets one to three subtasks; the big project's first task gets three,
 * and its first subtask a subtask of its own. Subtasks belong to no project (as in Asana, unless
 * added explicitly). Returns the gid of the anchor parent.
 */
function seedSubtasks(state: SeedState, premium: TaskContext, premiumProjects: AsanaProject[], free: TaskContext, freeProjects: AsanaProject[]): string {
  const { rng, data } = state;
  const anchor = data.task(premiumProjects[0]!.taskGids[0]!)!;
  const addSubtask = (ctx: TaskContext, parent: AsanaTask): AsanaTask => {
    const subtask = newTask(state, ctx, undefined, undefined);
    subtask.name = `${rng.pick(TASK_VERBS)} ${rng.pick(TASK_OBJECTS)} (step ${parent.subtaskGids.length + 1})`;
    subtask.parentGid = parent.gid;
    retime(rng, subtask, Math.min(SEED_NOW - DAY, Date.parse(parent.createdAt) + rng.int(0, 5) * DAY));
    if (parent === anchor) setIncomplete(subtask);
    data.add('task', subtask);
    parent.subtaskGids.push(subtask.gid);
    return subtask;
  };
  const groups: Array<[TaskContext, AsanaProject[]]> = [
    [premium, premiumProjects],
    [free, freeProjects],
  ];
  for (const [ctx, projects] of groups) {
    for (const project of projects) {
      project.taskGids.forEach((gid, index) => {
        const task = data.task(gid)!;
        if (task === anchor) {
          const first = addSubtask(ctx, task);
          addSubtask(ctx, task);
          addSubtask(ctx, task);
          addSubtask(ctx, first);
          return;
        }
        if (index % 12 === 5 && task.memberships[0]?.projectGid === project.gid) {
          const count = rng.int(1, 3);
          for (let k = 0; k < count; k += 1) addSubtask(ctx, task);
        }
      });
    }
  }
  return anchor.gid;
}

/** Moves a task's creation to `createdMs` and redraws its later times after it (subtasks follow their parent). */
function retime(rng: Prng, task: AsanaTask, createdMs: number): void {
  const modifiedMs = Math.min(SEED_NOW, createdMs + rng.int(0, 60) * DAY + rng.int(0, DAY - 1));
  task.createdAt = iso(createdMs);
  task.modifiedAt = iso(modifiedMs);
  if (task.completed) task.completedAt = iso(createdMs + Math.floor((modifiedMs - createdMs) * rng.next()));
  if (task.dueOn !== null) {
    const dueMs = createdMs + rng.int(3, 45) * DAY;
    task.dueOn = isoDate(dueMs);
    task.dueAt = task.dueAt !== null ? iso(Math.floor(dueMs / DAY) * DAY + 17 * 3600_000) : null;
    task.startOn = task.startOn !== null ? isoDate(dueMs - DAY) : null;
  }
}

/* ------------------------------------------------------------------ attachments */

const HOST_WEIGHTS: ReadonlyArray<readonly [AttachmentHost, number]> = [
  ['asana', 0.6],
  ['dropbox', 0.1],
  ['gdrive', 0.1],
  ['box', 0.1],
  ['external', 0.1],
];

function seedAttachments(
  state: SeedState,
  plan: AsanaSeedPlan,
  bigTasks: AsanaTask[],
  premiumProjects: AsanaProject[],
  freeProjects: AsanaProject[],
): AsanaAnchors['attachments'] {
  const { rng, data } = state;
  const host = bigTasks[0]!;
  const add = (task: AsanaTask, kind: AttachmentHost, file: readonly [string, string], size: number): AsanaAttachment => {
    const attachment = makeAttachment(state, task, kind, file, size);
    data.add('attachment', attachment);
    task.attachmentGids.push(attachment.gid);
    return attachment;
  };
  const anchors = {
    asana: add(host, 'asana', ['quarterly-report.pdf', 'application/pdf'], ANCHOR_ATTACHMENT_SIZE).gid,
    dropbox: add(host, 'dropbox', ['site-photos.jpg', 'image/jpeg'], 48_211).gid,
    gdrive: add(host, 'gdrive', ['Launch plan', 'application/vnd.google-apps.document'], 20_480).gid,
    box: add(host, 'box', ['contract-v2.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'], 91_004).gid,
    external: add(host, 'external', ['Figma mockups', 'text/html'], 1_024).gid,
    large: add(bigTasks[2]!, 'asana', ['design-assets.zip', 'application/zip'], LARGE_ATTACHMENT_SIZE).gid,
  };
  const candidates = [...premiumProjects.flatMap((project) => project.taskGids), ...freeProjects.flatMap((project) => project.taskGids)];
  for (let index = 6; index < plan.attachments; index += 1) {
    const task = data.task(rng.pick(candidates))!;
    let roll = rng.next();
    let kind: AttachmentHost = 'asana';
    for (const [name, weight] of HOST_WEIGHTS) {
      if (roll < weight) {
        kind = name;
        break;
      }
      roll -= weight;
    }
    add(task, kind, rng.pick(ATTACHMENT_FILES), rng.int(200, 2_000_000));
  }
  return anchors;
}

function makeAttachment(state: SeedState, task: AsanaTask, host: AttachmentHost, file: readonly [string, string], size: number): AsanaAttachment {
  const { rng } = state;
  const [name, contentType] = file;
  const gid = state.gids.take();
  const createdAt = iso(Math.min(SEED_NOW, Date.parse(task.createdAt) + rng.int(0, 20) * DAY + rng.int(0, DAY - 1)));
  const id = rng.hex(16);
  const base = { gid, name, host, createdAt, parentGid: task.gid, sizeBytes: size, contentType };
  switch (host) {
    case 'asana':
      return { ...base, download: 'blob', viewUrl: null, externalDownloadUrl: null, connectedToApp: null };
    case 'dropbox':
      // Dropbox files are served from the fake's file host too, so that their download can be tested.
      return {
        ...base,
        download: 'blob',
        viewUrl: `https://www.dropbox.com/s/${id}/${encodeURIComponent(name)}?dl=0`,
        externalDownloadUrl: null,
        connectedToApp: null,
      };
    case 'gdrive': {
      const fileId = `${id}${rng.hex(8)}`;
      return {
        ...base,
        download: 'external',
        viewUrl: `https://drive.google.com/file/d/${fileId}/view`,
        externalDownloadUrl: `https://drive.google.com/uc?id=${fileId}&export=download`,
        connectedToApp: rng.chance(0.5),
      };
    }
    case 'box':
      return { ...base, download: 'none', viewUrl: `https://app.box.com/s/${id}${rng.hex(16)}`, externalDownloadUrl: null, connectedToApp: null };
    case 'external':
      return {
        ...base,
        download: 'none',
        viewUrl: `https://www.figma.com/file/${id}/${asciiSlug(name) || 'file'}`,
        externalDownloadUrl: null,
        connectedToApp: false,
      };
  }
}

/* ------------------------------------------------------------------ helpers */

function pickSome<T>(rng: Prng, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
