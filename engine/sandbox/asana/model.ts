/**
 * The stored shape of the Asana fake's seeded objects (API-NOTES B3 "Full-record field lists").
 * Stored records hold gids of related objects; rendering turns them into Asana's compact records.
 */

/** The resource types the fake stores (`resource_type` of their records). */
export type ResourceType = 'workspace' | 'user' | 'team' | 'project' | 'section' | 'task' | 'tag' | 'attachment';

/** A workspace or organization. */
export interface AsanaWorkspace {
  gid: string;
  name: string;
  /** Organizations have email domains and teams; plain workspaces have neither. */
  isOrganization: boolean;
  emailDomains: string[];
  /** Task search answers 402 outside premium workspaces (B4). */
  premium: boolean;
}

/** A user; `photo` is null for users who never uploaded one (UserResponse `photo` is nullable). */
export interface AsanaUser {
  gid: string;
  name: string;
  email: string;
  hasPhoto: boolean;
  workspaceGids: string[];
}

/** A team of an organization. */
export interface AsanaTeam {
  gid: string;
  name: string;
  description: string;
  organizationGid: string;
  visibility: 'secret' | 'request_to_join' | 'public';
  endorsed: boolean;
  memberGids: string[];
}

/** A custom field defined in a premium workspace. */
export interface AsanaCustomField {
  gid: string;
  name: string;
  type: 'enum' | 'number' | 'text';
  workspaceGid: string;
  enumOptions: Array<{ gid: string; name: string; color: string }>;
  precision: number;
}

/** A project's status as the deprecated `current_status` (ProjectStatusResponse) shows it. */
export interface AsanaProjectStatus {
  gid: string;
  /** The status update (`current_status_update`) that carries the same status. */
  updateGid: string;
  title: string;
  text: string;
  color: 'green' | 'yellow' | 'red' | 'blue' | 'complete';
  authorGid: string;
  createdAt: string;
  modifiedAt: string;
}

/** A project. */
export interface AsanaProject {
  gid: string;
  name: string;
  workspaceGid: string;
  /** Null in plain workspaces: only organizations have teams. */
  teamGid: string | null;
  archived: boolean;
  completed: boolean;
  completedAt: string | null;
  completedByGid: string | null;
  color: string | null;
  icon: string | null;
  createdAt: string;
  modifiedAt: string;
  dueOn: string | null;
  startOn: string | null;
  notes: string;
  ownerGid: string | null;
  memberGids: string[];
  followerGids: string[];
  privacySetting: 'public_to_workspace' | 'private_to_team' | 'private';
  defaultView: 'list' | 'board' | 'calendar' | 'timeline';
  defaultAccessLevel: 'admin' | 'editor' | 'commenter' | 'viewer';
  minimumAccessLevelForCustomization: 'admin' | 'editor';
  minimumAccessLevelForSharing: 'admin' | 'editor';
  currentStatus: AsanaProjectStatus | null;
  customFieldGids: string[];
  /** Sections in board/list order. */
  sectionGids: string[];
  /** Tasks in the project's order (section by section). */
  taskGids: string[];
}

/** A section of a project. */
export interface AsanaSection {
  gid: string;
  name: string;
  projectGid: string;
  createdAt: string;
  taskGids: string[];
}

/** A custom field value set on a task. */
export interface AsanaCustomValue {
  fieldGid: string;
  /** Enum option gid, number or text; null when unset. */
  value: string | number | null;
}

/** A task or subtask. */
export interface AsanaTask {
  gid: string;
  name: string;
  resourceSubtype: 'default_task' | 'milestone' | 'approval';
  workspaceGid: string;
  createdByGid: string;
  assigneeGid: string | null;
  assignedByGid: string | null;
  assigneeStatus: 'today' | 'upcoming' | 'later' | 'new' | 'inbox';
  /** Only approval tasks have one. */
  approvalStatus: 'pending' | 'approved' | 'rejected' | 'changes_requested' | null;
  completed: boolean;
  completedAt: string | null;
  completedByGid: string | null;
  createdAt: string;
  modifiedAt: string;
  dueOn: string | null;
  dueAt: string | null;
  startOn: string | null;
  notes: string;
  parentGid: string | null;
  subtaskGids: string[];
  dependencyGids: string[];
  dependentGids: string[];
  memberships: Array<{ projectGid: string; sectionGid: string }>;
  tagGids: string[];
  followerGids: string[];
  likerGids: string[];
  customValues: AsanaCustomValue[];
  /** Set for a few tasks only: TaskResponse `external` is conditional. */
  external: { gid: string; data: string } | null;
  actualTimeMinutes: number | null;
  attachmentGids: string[];
}

/** A tag. */
export interface AsanaTag {
  gid: string;
  name: string;
  color: string | null;
  notes: string;
  createdAt: string;
  workspaceGid: string;
  followerGids: string[];
}

/** Where an attachment's bytes come from (B5: `host` and `download_url`). */
export type AttachmentHost = 'asana' | 'dropbox' | 'gdrive' | 'box' | 'external';

/** A file attached to a task. */
export interface AsanaAttachment {
  gid: string;
  name: string;
  host: AttachmentHost;
  createdAt: string;
  parentGid: string;
  /** Bytes of the file; Asana reports `size` for host `asana` only (B5). */
  sizeBytes: number;
  contentType: string;
  /**
   * `blob`: a signed URL on the fake's file host (asana, dropbox); `external`: the third-party
   * link itself (gdrive); `none`: `download_url` is null (box, external, B5).
   */
  download: 'blob' | 'external' | 'none';
  /** Where a browser shows the file on its host (`view_url`); null for `asana` (a fresh signed URL is used). */
  viewUrl: string | null;
  /** The host's own download link, served as `download_url` when `download` is `external`. */
  externalDownloadUrl: string | null;
  /** B5: present for hosts `external` and `gdrive` only. */
  connectedToApp: boolean | null;
}
