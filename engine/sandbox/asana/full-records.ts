/**
 * Full records (`*Response` of the spec) of every stored type, as trees (API-NOTES B3
 * "Full-record field lists", B5 for attachments).
 */
import { createHash } from 'node:crypto';
import type { AsanaDataset } from './dataset.js';
import type {
  AsanaAttachment,
  AsanaCustomField,
  AsanaCustomValue,
  AsanaProject,
  AsanaSection,
  AsanaTag,
  AsanaTask,
  AsanaTeam,
  AsanaUser,
  AsanaWorkspace,
  ResourceType,
} from './model.js';
import { Ref, type TreeObject } from './record-tree.js';

/** What building a full record needs besides the stored object. */
export interface RecordContext {
  data: AsanaDataset;
  /** The token owner: `liked`/`hearted` are relative to the caller. */
  meGid: string;
  /** Mints a signed file-host URL valid for two minutes from now (B5). */
  signedDownloadUrl(attachment: AsanaAttachment): string;
}

const APP = 'https://app.asana.com';

/**
 * The full record of an object, or undefined when the gid names no object of that type.
 * Why: single reads return it (B3), and `opt_fields` selects from it (B2).
 */
export function fullRecord(ctx: RecordContext, type: ResourceType, gid: string): TreeObject | undefined {
  const { data } = ctx;
  switch (type) {
    case 'task': {
      const task = data.task(gid);
      return task && taskRecord(ctx, task);
    }
    case 'project': {
      const project = data.project(gid);
      return project && projectRecord(ctx, project);
    }
    case 'user': {
      const user = data.user(gid);
      return user && userRecord(user);
    }
    case 'workspace': {
      const workspace = data.workspace(gid);
      return workspace && workspaceRecord(workspace);
    }
    case 'team': {
      const team = data.team(gid);
      return team && teamRecord(team);
    }
    case 'tag': {
      const tag = data.tag(gid);
      return tag && tagRecord(tag);
    }
    case 'section': {
      const section = data.section(gid);
      return section && sectionRecord(section);
    }
    case 'attachment': {
      const attachment = data.attachment(gid);
      return attachment && attachmentRecord(ctx, attachment);
    }
  }
}

/** A stable gid for a sub-object the fake does not store (likes, custom field settings). */
function derivedGid(...parts: string[]): string {
  const hash = createHash('sha256').update(parts.join('/')).digest();
  return String(1_299_000_000_000_000 + (hash.readUInt32BE(0) % 1_000_000) * 1_000_000 + (hash.readUInt32BE(4) % 1_000_000));
}

function refs(type: ResourceType, gids: string[], style: 'compact' | 'resource' = 'compact'): Ref[] {
  return gids.map((gid) => new Ref(type, gid, style));
}

function optionalRef(type: ResourceType, gid: string | null): Ref | null {
  return gid === null ? null : new Ref(type, gid);
}

function htmlNotes(notes: string): string {
  const escaped = notes.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<body>${escaped}</body>`;
}

function taskRecord(ctx: RecordContext, task: AsanaTask): TreeObject {
  const likes = task.likerGids.map((userGid) => ({ gid: derivedGid('like', task.gid, userGid), user: new Ref('user', userGid) }));
  const firstProject = task.memberships[0]?.projectGid ?? '0';
  const record: TreeObject = {
    gid: task.gid,
    resource_type: 'task',
    name: task.name,
    resource_subtype: task.resourceSubtype,
    created_by: new Ref('user', task.createdByGid, 'resource'),
  };
  // The spec marks approval_status "Conditional": only approval tasks have it.
  if (task.approvalStatus !== null) record['approval_status'] = task.approvalStatus;
  Object.assign(record, {
    assignee_status: task.assigneeStatus,
    assigned_by: optionalRef('user', task.assignedByGid),
    completed: task.completed,
    completed_at: task.completedAt,
    completed_by: optionalRef('user', task.completedByGid),
    created_at: task.createdAt,
    dependencies: refs('task', task.dependencyGids, 'resource'),
    dependents: refs('task', task.dependentGids, 'resource'),
    due_at: task.dueAt,
    due_on: task.dueOn,
  });
  // `external` is "Conditional": returned only when external data was set on the task.
  if (task.external) record['external'] = { gid: task.external.gid, data: task.external.data };
  Object.assign(record, {
    html_notes: htmlNotes(task.notes),
    hearted: task.likerGids.includes(ctx.meGid),
    hearts: likes,
    is_rendered_as_separator: false,
    liked: task.likerGids.includes(ctx.meGid),
    likes,
    memberships: task.memberships.map((membership) => ({
      project: new Ref('project', membership.projectGid),
      section: new Ref('section', membership.sectionGid),
    })),
    modified_at: task.modifiedAt,
    notes: task.notes,
    num_hearts: likes.length,
    num_likes: likes.length,
    num_subtasks: task.subtaskGids.length,
    start_at: null,
    start_on: task.startOn,
    actual_time_minutes: task.actualTimeMinutes,
    assignee: optionalRef('user', task.assigneeGid),
    assignee_section: null,
    custom_fields: task.customValues.map((value) => customFieldValue(ctx.data.customField(value.fieldGid)!, value)),
    custom_type: null,
    custom_type_status_option: null,
    followers: refs('user', task.followerGids),
    parent: optionalRef('task', task.parentGid),
    projects: refs(
      'project',
      task.memberships.map((membership) => membership.projectGid),
    ),
    tags: refs('tag', task.tagGids),
    workspace: new Ref('workspace', task.workspaceGid),
    permalink_url: `${APP}/0/${firstProject}/${task.gid}`,
  });
  return record;
}

function customFieldDefinition(field: AsanaCustomField): TreeObject {
  return {
    gid: field.gid,
    resource_type: 'custom_field',
    name: field.name,
    type: field.type,
    resource_subtype: field.type,
    representation_type: field.type,
    enabled: true,
    is_formula_field: false,
    is_value_read_only: false,
    enum_options: field.enumOptions.map((option) => enumOption(option)),
    ...(field.type === 'number' ? { precision: field.precision, format: 'none' } : {}),
  };
}

function enumOption(option: { gid: string; name: string; color: string }): TreeObject {
  return { gid: option.gid, resource_type: 'enum_option', name: option.name, enabled: true, color: option.color };
}

function customFieldValue(field: AsanaCustomField, value: AsanaCustomValue): TreeObject {
  const base = customFieldDefinition(field);
  if (field.type === 'enum') {
    const option = field.enumOptions.find((candidate) => candidate.gid === value.value);
    return { ...base, enum_value: option ? enumOption(option) : null, display_value: option?.name ?? null };
  }
  if (field.type === 'number') {
    const number = typeof value.value === 'number' ? value.value : null;
    return { ...base, number_value: number, display_value: number === null ? null : number.toFixed(field.precision) };
  }
  const text = typeof value.value === 'string' ? value.value : null;
  return { ...base, text_value: text, display_value: text };
}

function projectRecord(ctx: RecordContext, project: AsanaProject): TreeObject {
  const status = project.currentStatus;
  const record: TreeObject = {
    gid: project.gid,
    resource_type: 'project',
    name: project.name,
    archived: project.archived,
    color: project.color,
    icon: project.icon,
    created_at: project.createdAt,
    current_status: status && {
      gid: status.gid,
      resource_type: 'project_status',
      title: status.title,
      text: status.text,
      html_text: htmlNotes(status.text),
      color: status.color,
      author: new Ref('user', status.authorGid),
      created_at: status.createdAt,
      created_by: new Ref('user', status.authorGid),
      modified_at: status.modifiedAt,
    },
    current_status_update: status && {
      gid: status.updateGid,
      resource_type: 'status_update',
      title: status.title,
      resource_subtype: 'project_status_update',
    },
    custom_field_settings: project.customFieldGids.map((fieldGid, index) => ({
      gid: derivedGid('custom_field_setting', project.gid, fieldGid),
      resource_type: 'custom_field_setting',
      project: new Ref('project', project.gid),
      is_important: index === 0,
      parent: new Ref('project', project.gid),
      custom_field: customFieldDefinition(ctx.data.customField(fieldGid)!),
    })),
    default_view: project.defaultView,
    due_date: project.dueOn,
    due_on: project.dueOn,
    html_notes: htmlNotes(project.notes),
    members: refs('user', project.memberGids),
    modified_at: project.modifiedAt,
    notes: project.notes,
    public: project.privacySetting === 'public_to_workspace',
    privacy_setting: project.privacySetting,
    start_on: project.startOn,
    default_access_level: project.defaultAccessLevel,
    minimum_access_level_for_customization: project.minimumAccessLevelForCustomization,
    minimum_access_level_for_sharing: project.minimumAccessLevelForSharing,
    custom_fields: [],
    completed: project.completed,
    completed_at: project.completedAt,
    completed_by: optionalRef('user', project.completedByGid),
    followers: refs('user', project.followerGids),
    owner: optionalRef('user', project.ownerGid),
  };
  // The spec's `team` is not nullable and "only exists for projects in organizations": projects
  // of a plain workspace omit it ([unverified] whether Asana sends null instead).
  if (project.teamGid !== null) record['team'] = new Ref('team', project.teamGid);
  Object.assign(record, {
    permalink_url: `${APP}/0/${project.gid}/${project.gid}`,
    project_brief: null,
    created_from_template: null,
    workspace: new Ref('workspace', project.workspaceGid),
  });
  return record;
}

function userRecord(user: AsanaUser): TreeObject {
  const photoBase = `https://s3.amazonaws.com/profile_photos/${user.gid}.${createHash('sha1').update(user.email).digest('hex').slice(0, 20)}`;
  return {
    gid: user.gid,
    resource_type: 'user',
    name: user.name,
    email: user.email,
    photo: user.hasPhoto
      ? {
          image_21x21: `${photoBase}_21x21.png`,
          image_27x27: `${photoBase}_27x27.png`,
          image_36x36: `${photoBase}_36x36.png`,
          image_60x60: `${photoBase}_60x60.png`,
          image_128x128: `${photoBase}_128x128.png`,
          image_1024x1024: `${photoBase}_1024x1024.jpeg`,
        }
      : null,
    workspaces: refs('workspace', user.workspaceGids),
    custom_fields: [],
  };
}

function workspaceRecord(workspace: AsanaWorkspace): TreeObject {
  return {
    gid: workspace.gid,
    resource_type: 'workspace',
    name: workspace.name,
    // Bare domains, as Asana sends them (the spec's own example is `asana.com`).
    email_domains: [...workspace.emailDomains],
    is_organization: workspace.isOrganization,
  };
}

function teamRecord(team: AsanaTeam): TreeObject {
  const adminsOnly = team.visibility === 'secret' ? 'only_team_admins' : 'all_team_members';
  return {
    gid: team.gid,
    resource_type: 'team',
    name: team.name,
    description: team.description,
    html_description: htmlNotes(team.description),
    organization: new Ref('workspace', team.organizationGid),
    permalink_url: `${APP}/0/team/${team.gid}`,
    visibility: team.visibility,
    edit_team_name_or_description_access_level: adminsOnly,
    edit_team_visibility_or_trash_team_access_level: 'only_team_admins',
    member_invite_management_access_level: adminsOnly,
    guest_invite_management_access_level: 'only_team_admins',
    join_request_management_access_level: adminsOnly,
    team_member_removal_access_level: 'only_team_admins',
    team_content_management_access_level: 'no_restriction',
    endorsed: team.endorsed,
    custom_field_settings: [],
  };
}

function tagRecord(tag: AsanaTag): TreeObject {
  return {
    gid: tag.gid,
    resource_type: 'tag',
    name: tag.name,
    color: tag.color,
    notes: tag.notes,
    created_at: tag.createdAt,
    followers: refs('user', tag.followerGids),
    workspace: new Ref('workspace', tag.workspaceGid),
    permalink_url: `${APP}/0/${tag.gid}/list`,
  };
}

function sectionRecord(section: AsanaSection): TreeObject {
  return {
    gid: section.gid,
    resource_type: 'section',
    name: section.name,
    created_at: section.createdAt,
    project: new Ref('project', section.projectGid),
    projects: [new Ref('project', section.projectGid)],
  };
}

/**
 * B5: `download_url` is a fresh two-minute signed URL on the fake's file host for `asana` and
 * (here) `dropbox` files, the host's own link for `gdrive`, and null for `box` and `external`;
 * `size` only for `asana`; `connected_to_app` only for `gdrive` and `external`.
 */
function attachmentRecord(ctx: RecordContext, attachment: AsanaAttachment): TreeObject {
  const downloadUrl =
    attachment.download === 'blob' ? ctx.signedDownloadUrl(attachment) : attachment.download === 'external' ? attachment.externalDownloadUrl : null;
  const record: TreeObject = {
    gid: attachment.gid,
    resource_type: 'attachment',
    name: attachment.name,
    resource_subtype: attachment.host,
    created_at: attachment.createdAt,
    download_url: downloadUrl,
    permanent_url: attachment.host === 'asana' ? `${APP}/app/asana/-/get_asset?asset_id=${attachment.gid}` : null,
    host: attachment.host,
    parent: new Ref('task', attachment.parentGid),
  };
  if (attachment.host === 'asana') record['size'] = attachment.sizeBytes;
  // For Asana-hosted files the viewer URL is the (signed) file itself.
  record['view_url'] = attachment.host === 'asana' ? downloadUrl : attachment.viewUrl;
  if (attachment.connectedToApp !== null) record['connected_to_app'] = attachment.connectedToApp;
  return record;
}
