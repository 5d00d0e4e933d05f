/**
 * The in-memory store of the Asana fake's seeded objects, with the lookups the routes need.
 */
import type {
  AsanaAttachment,
  AsanaCustomField,
  AsanaProject,
  AsanaSection,
  AsanaTag,
  AsanaTask,
  AsanaTeam,
  AsanaUser,
  AsanaWorkspace,
  ResourceType,
} from './model.js';

/** Gids of seeded objects that tests and docs refer to by role. */
export interface AsanaAnchors {
  /** The premium organization (task search works here). */
  premiumWorkspaceGid: string;
  /** The free, non-organization workspace (task search answers 402). */
  freeWorkspaceGid: string;
  /** The owner of every token the fake issues (`/users/me`). */
  meGid: string;
  meEmail: string;
  /** Another user of the premium organization, with a photo. */
  userGid: string;
  userEmail: string;
  /** A team of the premium organization that `me` belongs to. */
  teamGid: string;
  /** The largest project (about half the `records` tasks): too large to list without `limit`. */
  bigProjectGid: string;
  /** The first section of the big project. */
  sectionGid: string;
  /** An archived project of the premium organization. */
  archivedProjectGid: string;
  /** A project of the free workspace. */
  freeProjectGid: string;
  /** A tag of the premium organization. */
  tagGid: string;
  /** A task of the big project with subtasks (one of which has a subtask). */
  taskWithSubtasksGid: string;
  /** A task of the big project with two dependencies. */
  taskWithDependenciesGid: string;
  /** A task of the big project that other tasks depend on. */
  taskWithDependentsGid: string;
  /** A task of the big project that is also in a second project. */
  multiHomedTaskGid: string;
  /** A task of the free workspace. */
  freeTaskGid: string;
  /** One attachment per host, plus the 200 MiB `asana` file. */
  attachments: {
    asana: string;
    dropbox: string;
    gdrive: string;
    box: string;
    external: string;
    large: string;
  };
}

/** Every seeded object, by type, in creation (gid) order, with indexes by gid. */
export class AsanaDataset {
  readonly workspaces: AsanaWorkspace[] = [];
  readonly users: AsanaUser[] = [];
  readonly teams: AsanaTeam[] = [];
  readonly customFields: AsanaCustomField[] = [];
  readonly projects: AsanaProject[] = [];
  readonly sections: AsanaSection[] = [];
  readonly tasks: AsanaTask[] = [];
  readonly tags: AsanaTag[] = [];
  readonly attachments: AsanaAttachment[] = [];
  private readonly byGid = new Map<string, { type: ResourceType | 'custom_field'; record: unknown }>();
  private usersByEmail: Map<string, AsanaUser> | undefined;
  private anchorGids: AsanaAnchors | undefined;

  /** Gids of the objects tests refer to by role. Why: tests must not hard-code seed-dependent gids. */
  get anchors(): AsanaAnchors {
    if (!this.anchorGids) throw new Error('the Asana dataset has no anchors yet');
    return this.anchorGids;
  }

  /** Records the anchors once the seed has created them. Why: they are known only after seeding. */
  setAnchors(anchors: AsanaAnchors): void {
    this.anchorGids = anchors;
  }

  /**
   * Stores an object under its gid (gids are unique across types, as in Asana).
   * Why: the seed adds objects one by one and routes then find them by gid only.
   */
  add(type: 'workspace', record: AsanaWorkspace): void;
  add(type: 'user', record: AsanaUser): void;
  add(type: 'team', record: AsanaTeam): void;
  add(type: 'custom_field', record: AsanaCustomField): void;
  add(type: 'project', record: AsanaProject): void;
  add(type: 'section', record: AsanaSection): void;
  add(type: 'task', record: AsanaTask): void;
  add(type: 'tag', record: AsanaTag): void;
  add(type: 'attachment', record: AsanaAttachment): void;
  add(type: ResourceType | 'custom_field', record: { gid: string }): void {
    if (this.byGid.has(record.gid)) throw new Error(`duplicate gid ${record.gid}`);
    this.byGid.set(record.gid, { type, record });
    const lists: Record<ResourceType | 'custom_field', unknown[]> = {
      workspace: this.workspaces,
      user: this.users,
      team: this.teams,
      custom_field: this.customFields,
      project: this.projects,
      section: this.sections,
      task: this.tasks,
      tag: this.tags,
      attachment: this.attachments,
    };
    lists[type].push(record);
    this.usersByEmail = undefined;
  }

  /** The type of the object with this gid, if any. Why: `/attachments?parent=` accepts several types. */
  typeOf(gid: string): ResourceType | 'custom_field' | undefined {
    return this.byGid.get(gid)?.type;
  }

  /** A workspace by gid. Why: most routes resolve one from a path or query parameter. */
  workspace(gid: string): AsanaWorkspace | undefined {
    return this.get('workspace', gid);
  }

  /** A user by gid. */
  user(gid: string): AsanaUser | undefined {
    return this.get('user', gid);
  }

  /** A user by email, case-insensitively. Why: B3: `user_gid` may be an email. */
  userByEmail(email: string): AsanaUser | undefined {
    if (!this.usersByEmail) this.usersByEmail = new Map(this.users.map((user) => [user.email.toLowerCase(), user]));
    return this.usersByEmail.get(email.toLowerCase());
  }

  /** A team by gid. */
  team(gid: string): AsanaTeam | undefined {
    return this.get('team', gid);
  }

  /** A custom field by gid. */
  customField(gid: string): AsanaCustomField | undefined {
    return this.get('custom_field', gid);
  }

  /** A project by gid. */
  project(gid: string): AsanaProject | undefined {
    return this.get('project', gid);
  }

  /** A section by gid. */
  section(gid: string): AsanaSection | undefined {
    return this.get('section', gid);
  }

  /** A task (or subtask) by gid. */
  task(gid: string): AsanaTask | undefined {
    return this.get('task', gid);
  }

  /** A tag by gid. */
  tag(gid: string): AsanaTag | undefined {
    return this.get('tag', gid);
  }

  /** An attachment by gid. */
  attachment(gid: string): AsanaAttachment | undefined {
    return this.get('attachment', gid);
  }

  /** Projects of a workspace, in gid order. */
  projectsOf(workspaceGid: string): AsanaProject[] {
    return this.projects.filter((project) => project.workspaceGid === workspaceGid);
  }

  /** Tasks (subtasks included) of a workspace, in gid order. Why: task search and `assignee + workspace`. */
  tasksOf(workspaceGid: string): AsanaTask[] {
    return this.tasks.filter((task) => task.workspaceGid === workspaceGid);
  }

  /** Users who are members of a workspace, in gid order. */
  membersOf(workspaceGid: string): AsanaUser[] {
    return this.users.filter((user) => user.workspaceGids.includes(workspaceGid));
  }

  private get<T>(type: ResourceType | 'custom_field', gid: string): T | undefined {
    const entry = this.byGid.get(gid);
    return entry && entry.type === type ? (entry.record as T) : undefined;
  }
}
