/**
 * GENERATED from connectors/*.yaml by `npm run generate`; do not edit. A test fails when this file
 * is stale.
 */

export type GongWorkspacesListParams = Record<string, never>;
export type ShopifyShopGetParams = Record<string, never>;
export type ShopifyLocationsListParams = Record<string, never>;

/**
 * Every shipped connector type: its entities, their actions, and what each takes and returns.
 */
export interface ShippedConnectors {
  'amazon-ads': AmazonAdsEntities;
  asana: AsanaEntities;
  gong: GongEntities;
  hubspot: HubspotEntities;
  shopify: ShopifyEntities;
}
/**
 * Amazon Ads
 */
export interface AmazonAdsEntities {
  profiles: AmazonAdsProfilesActions;
  portfolios: AmazonAdsPortfoliosActions;
  sponsored_product_campaigns: AmazonAdsSponsoredProductCampaignsActions;
}
/**
 * Advertiser profiles (one per advertiser and marketplace) in the configured region.
 */
export interface AmazonAdsProfilesActions {
  /**
   * Lists the profiles of the region (no Scope header: profiles are what a scope names).
   */
  list: {
    kind: 'records';
    params: AmazonAdsProfilesListParams;
    record: AmazonAdsProfilesRecord;
    meta: AmazonAdsProfilesListMeta;
  };
  /**
   * Reads one profile.
   */
  get: {
    kind: 'record';
    params: AmazonAdsProfilesGetParams;
    record: AmazonAdsProfilesRecord;
    meta: AmazonAdsProfilesGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AmazonAdsProfilesSearchFields;
    hit: AmazonAdsProfilesSearchHit;
  };
}
export interface AmazonAdsProfilesListParams {
  /**
   * Comma-separated profile types: seller, vendor, agency.
   */
  profileTypeFilter?: string;
}
export interface AmazonAdsProfilesRecord {
  profileId: number;
  countryCode?: string | null;
  currencyCode?: string | null;
  dailyBudget?: number | null;
  timezone?: string | null;
  accountInfo?: unknown;
  [k: string]: unknown;
}
export interface AmazonAdsProfilesListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AmazonAdsProfilesGetParams {
  /**
   * Profile id.
   */
  profileId: number;
}
export interface AmazonAdsProfilesGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AmazonAdsProfilesSearchFields {
  accountInfo: 'object';
  countryCode: 'string';
  currencyCode: 'string';
  dailyBudget: 'number';
  profileId: 'integer';
  timezone: 'string';
}
export interface AmazonAdsProfilesSearchHit {
  accountInfo?: unknown;
  countryCode?: string | null;
  currencyCode?: string | null;
  dailyBudget?: number | null;
  profileId?: number;
  timezone?: string | null;
}
/**
 * Portfolios of the configured profile.
 */
export interface AmazonAdsPortfoliosActions {
  /**
   * Lists portfolios (v3 POST /portfolios/list), 100 per page.
   */
  list: {
    kind: 'records';
    params: AmazonAdsPortfoliosListParams;
    record: AmazonAdsPortfoliosRecord;
    meta: AmazonAdsPortfoliosListMeta;
  };
  /**
   * Reads one portfolio through the v2 API (SPEC.md), with its audit fields.
   */
  get: {
    kind: 'record';
    params: AmazonAdsPortfoliosGetParams;
    record: AmazonAdsPortfoliosRecord;
    meta: AmazonAdsPortfoliosGetMeta;
  };
}
export interface AmazonAdsPortfoliosListParams {
  /**
   * "true" to include creation and update times and the serving status.
   */
  includeExtendedDataFields?: 'true' | 'false';
  /**
   * Page token from meta.next_cursor.
   */
  nextToken?: string;
}
export interface AmazonAdsPortfoliosRecord {
  portfolioId: string | number;
  name?: string | null;
  budget?: unknown;
  inBudget?: boolean | null;
  state?: string | null;
  creationDate?: number | null;
  lastUpdatedDate?: number | null;
  servingStatus?: string | null;
  [k: string]: unknown;
}
export interface AmazonAdsPortfoliosListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `totalResults`, or null.
   */
  total: unknown;
}
export interface AmazonAdsPortfoliosGetParams {
  /**
   * Portfolio id.
   */
  portfolioId: number;
}
export interface AmazonAdsPortfoliosGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Sponsored Products campaigns of the configured profile.
 */
export interface AmazonAdsSponsoredProductCampaignsActions {
  /**
   * Lists campaigns (v3 POST /sp/campaigns/list).
   */
  list: {
    kind: 'records';
    params: AmazonAdsSponsoredProductCampaignsListParams;
    record: AmazonAdsSponsoredProductCampaignsRecord;
    meta: AmazonAdsSponsoredProductCampaignsListMeta;
  };
  /**
   * Reads one campaign through the v2 API (SPEC.md).
   */
  get: {
    kind: 'record';
    params: AmazonAdsSponsoredProductCampaignsGetParams;
    record: AmazonAdsSponsoredProductCampaignsRecord;
    meta: AmazonAdsSponsoredProductCampaignsGetMeta;
  };
}
export interface AmazonAdsSponsoredProductCampaignsListParams {
  /**
   * Which campaign states to return.
   */
  stateFilter?: {
    /**
     * Comma-separated states: enabled, paused, archived.
     */
    include?: string;
  };
  /**
   * Results per page (upstream default: its maximum page size).
   */
  maxResults?: number;
  /**
   * Page token from meta.next_cursor.
   */
  nextToken?: string;
}
export interface AmazonAdsSponsoredProductCampaignsRecord {
  campaignId: string | number;
  portfolioId?: unknown;
  name?: string | null;
  campaignType?: string | null;
  tags?: {
    [k: string]: unknown;
  } | null;
  targetingType?: string | null;
  premiumBidAdjustment?: boolean | null;
  state?: string | null;
  dynamicBidding?: unknown;
  bidding?: unknown;
  startDate?: string | null;
  endDate?: string | null;
  dailyBudget?: number | null;
  budget?: unknown;
  extendedData?: {
    [k: string]: unknown;
  } | null;
  marketplaceBudgetAllocation?: string | null;
  offAmazonSettings?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
export interface AmazonAdsSponsoredProductCampaignsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `totalResults`, or null.
   */
  total: unknown;
}
export interface AmazonAdsSponsoredProductCampaignsGetParams {
  /**
   * Campaign id.
   */
  campaignId: number;
}
export interface AmazonAdsSponsoredProductCampaignsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Asana
 */
export interface AsanaEntities {
  tasks: AsanaTasksActions;
  project_tasks: AsanaProjectTasksActions;
  workspace_task_search: AsanaWorkspaceTaskSearchActions;
  projects: AsanaProjectsActions;
  task_projects: AsanaTaskProjectsActions;
  team_projects: AsanaTeamProjectsActions;
  workspace_projects: AsanaWorkspaceProjectsActions;
  workspaces: AsanaWorkspacesActions;
  users: AsanaUsersActions;
  workspace_users: AsanaWorkspaceUsersActions;
  team_users: AsanaTeamUsersActions;
  workspace_teams: AsanaWorkspaceTeamsActions;
  user_teams: AsanaUserTeamsActions;
  teams: AsanaTeamsActions;
  workspace_tags: AsanaWorkspaceTagsActions;
  tags: AsanaTagsActions;
  project_sections: AsanaProjectSectionsActions;
  sections: AsanaSectionsActions;
  task_subtasks: AsanaTaskSubtasksActions;
  task_dependencies: AsanaTaskDependenciesActions;
  task_dependents: AsanaTaskDependentsActions;
  attachments: AsanaAttachmentsActions;
}
/**
 * Tasks.
 */
export interface AsanaTasksActions {
  /**
   * Lists tasks of a project, a section, or a workspace assignee (the task record T1).
   */
  list: {
    kind: 'records';
    params: AsanaTasksListParams;
    record: AsanaTasksRecord;
    meta: AsanaTasksListMeta;
  };
  /**
   * Reads one task, with every field Asana returns.
   */
  get: {
    kind: 'record';
    params: AsanaTasksGetParams;
    record: AsanaTasksRecord;
    meta: AsanaTasksGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaTasksSearchFields;
    hit: AsanaTasksSearchHit;
  };
}
export interface AsanaTasksListParams {
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Project gid.
   */
  project?: string;
  /**
   * Section gid.
   */
  section?: string;
  /**
   * Workspace gid (together with assignee).
   */
  workspace?: string;
  /**
   * Assignee gid, email or me (together with workspace).
   */
  assignee?: string;
  /**
   * Only tasks incomplete or completed since this date-time; now means incomplete only.
   */
  completed_since?: string;
  /**
   * Only tasks modified since this date-time.
   */
  modified_since?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaTasksRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  resource_subtype?: string;
  created_by?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
export interface AsanaTasksListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface AsanaTasksGetParams {
  /**
   * Task gid.
   */
  task_gid: string;
}
export interface AsanaTasksGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaTasksSearchFields {
  actual_time_minutes: 'integer';
  num_hearts: 'integer';
  num_likes: 'integer';
  num_subtasks: 'integer';
  completed: 'boolean';
  hearted: 'boolean';
  is_rendered_as_separator: 'boolean';
  liked: 'boolean';
  assignee: 'object';
  completed_by: 'object';
  external: 'object';
  parent: 'object';
  workspace: 'object';
  custom_fields: 'array';
  dependencies: 'array';
  dependents: 'array';
  followers: 'array';
  hearts: 'array';
  likes: 'array';
  memberships: 'array';
  projects: 'array';
  tags: 'array';
  approval_status: 'string';
  completed_at: 'string';
  created_at: 'string';
  due_at: 'string';
  due_on: 'string';
  gid: 'string';
  html_notes: 'string';
  modified_at: 'string';
  name: 'string';
  notes: 'string';
  permalink_url: 'string';
  resource_subtype: 'string';
  resource_type: 'string';
  start_on: 'string';
}
export interface AsanaTasksSearchHit {
  actual_time_minutes?: number | null;
  num_hearts?: number | null;
  num_likes?: number | null;
  num_subtasks?: number | null;
  completed?: boolean | null;
  hearted?: boolean | null;
  is_rendered_as_separator?: boolean | null;
  liked?: boolean | null;
  assignee?: {
    [k: string]: unknown;
  } | null;
  completed_by?: {
    [k: string]: unknown;
  } | null;
  external?: {
    [k: string]: unknown;
  } | null;
  parent?: {
    [k: string]: unknown;
  } | null;
  workspace?: {
    [k: string]: unknown;
  } | null;
  custom_fields?: unknown[] | null;
  dependencies?: unknown[] | null;
  dependents?: unknown[] | null;
  followers?: unknown[] | null;
  hearts?: unknown[] | null;
  likes?: unknown[] | null;
  memberships?: unknown[] | null;
  projects?: unknown[] | null;
  tags?: unknown[] | null;
  approval_status?: string | null;
  completed_at?: string | null;
  created_at?: string | null;
  due_at?: string | null;
  due_on?: string | null;
  gid?: string;
  html_notes?: string | null;
  modified_at?: string | null;
  name?: string;
  notes?: string | null;
  permalink_url?: string | null;
  resource_subtype?: string;
  resource_type?: string | null;
  start_on?: string | null;
}
/**
 * Tasks of one project.
 */
export interface AsanaProjectTasksActions {
  /**
   * Lists the tasks of a project (T1).
   */
  list: {
    kind: 'records';
    params: AsanaProjectTasksListParams;
    record: AsanaProjectTasksRecord;
    meta: AsanaProjectTasksListMeta;
  };
}
export interface AsanaProjectTasksListParams {
  /**
   * Project gid.
   */
  project_gid: string;
  /**
   * Only tasks incomplete or completed since this date-time; now means incomplete only.
   */
  completed_since?: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaProjectTasksRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaProjectTasksListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Task search in a workspace (premium only). Asana has no offset here; the engine pages by created_at, as Asana advises (API-NOTES B4), newest first or, with sort_ascending, oldest first.
 */
export interface AsanaWorkspaceTaskSearchActions {
  /**
   * Searches tasks of a workspace (T1). At least one search parameter is needed; free workspaces answer 402.
   */
  list: {
    kind: 'records';
    params: AsanaWorkspaceTaskSearchListParams;
    record: AsanaWorkspaceTaskSearchRecord;
    meta: AsanaWorkspaceTaskSearchListMeta;
  };
}
export interface AsanaWorkspaceTaskSearchListParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
  /**
   * Results per page (1-100, default 100).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor (created_at order only).
   */
  offset?: string;
  /**
   * Search text.
   */
  text?: string;
  /**
   * Completion status.
   */
  completed?: boolean;
  /**
   * Comma-separated user gids.
   */
  'assignee.any'?: string;
  /**
   * Comma-separated project gids.
   */
  'projects.any'?: string;
  /**
   * Comma-separated section gids.
   */
  'sections.any'?: string;
  /**
   * Comma-separated team gids.
   */
  'teams.any'?: string;
  /**
   * Comma-separated user gids.
   */
  'followers.any'?: string;
  /**
   * ISO 8601 date-time.
   */
  'created_at.after'?: string;
  /**
   * ISO 8601 date-time.
   */
  'created_at.before'?: string;
  /**
   * ISO 8601 date-time.
   */
  'modified_at.after'?: string;
  /**
   * ISO 8601 date-time.
   */
  'modified_at.before'?: string;
  /**
   * ISO 8601 date.
   */
  'due_on.after'?: string;
  /**
   * ISO 8601 date.
   */
  'due_on.before'?: string;
  /**
   * Task subtype, e.g. default_task or milestone.
   */
  resource_subtype?: 'default_task' | 'milestone' | 'approval' | 'custom';
  /**
   * Field to sort by (default created_at here, the one order that can be paged; another gives one page, with has_more and no cursor).
   */
  sort_by?: 'due_date' | 'created_at' | 'completed_at' | 'likes' | 'modified_at' | 'relevance';
  /**
   * true ascending, false descending (default false).
   */
  sort_ascending?: boolean;
}
export interface AsanaWorkspaceTaskSearchRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaWorkspaceTaskSearchListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The cursor as {offset}; null on the last page.
   */
  next_page: {
    offset: string;
  } | null;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Projects.
 */
export interface AsanaProjectsActions {
  /**
   * Lists projects (P1), optionally of a workspace or team: page by page within one, all at once without.
   */
  list: {
    kind: 'records';
    params: AsanaProjectsListParams;
    record: AsanaProjectsRecord;
    meta: AsanaProjectsListMeta;
  };
  /**
   * Reads one project.
   */
  get: {
    kind: 'record';
    params: AsanaProjectsGetParams;
    record: AsanaProjectsRecord;
    meta: AsanaProjectsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaProjectsSearchFields;
    hit: AsanaProjectsSearchHit;
  };
}
export interface AsanaProjectsListParams {
  /**
   * Items per page, 1-100 (default 100), with a workspace or team only.
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Workspace gid (Asana needs it to page /projects).
   */
  workspace?: string;
  /**
   * Team gid.
   */
  team?: string;
  /**
   * Only projects whose archived flag has this value.
   */
  archived?: boolean;
}
export interface AsanaProjectsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  archived?: boolean;
  color?: string | null;
  completed?: boolean;
  completed_at?: string | null;
  created_at?: string;
  current_status?: {
    [k: string]: unknown;
  } | null;
  current_status_update?: {
    [k: string]: unknown;
  } | null;
  custom_fields?: unknown[];
  default_access_level?: string;
  default_view?: string;
  due_on?: string | null;
  due_date?: string | null;
  followers?: {
    [k: string]: unknown;
  }[];
  members?: {
    [k: string]: unknown;
  }[];
  minimum_access_level_for_customization?: string;
  minimum_access_level_for_sharing?: string;
  modified_at?: string;
  notes?: string;
  owner?: {
    [k: string]: unknown;
  } | null;
  permalink_url?: string;
  privacy_setting?: string;
  public?: boolean;
  start_on?: string | null;
  team?: {
    [k: string]: unknown;
  };
  workspace?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface AsanaProjectsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface AsanaProjectsGetParams {
  /**
   * Project gid.
   */
  project_gid: string;
}
export interface AsanaProjectsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaProjectsSearchFields {
  archived: 'boolean';
  is_template: 'boolean';
  public: 'boolean';
  current_status: 'object';
  owner: 'object';
  team: 'object';
  workspace: 'object';
  custom_field_settings: 'array';
  custom_fields: 'array';
  followers: 'array';
  members: 'array';
  color: 'string';
  created_at: 'string';
  default_view: 'string';
  due_date: 'string';
  due_on: 'string';
  gid: 'string';
  html_notes: 'string';
  icon: 'string';
  modified_at: 'string';
  name: 'string';
  notes: 'string';
  permalink_url: 'string';
  resource_type: 'string';
  start_on: 'string';
}
export interface AsanaProjectsSearchHit {
  archived?: boolean;
  is_template?: boolean | null;
  public?: boolean;
  current_status?: {
    [k: string]: unknown;
  } | null;
  owner?: {
    [k: string]: unknown;
  } | null;
  team?: {
    [k: string]: unknown;
  } | null;
  workspace?: {
    [k: string]: unknown;
  };
  custom_field_settings?: unknown[] | null;
  custom_fields?: unknown[];
  followers?: {
    [k: string]: unknown;
  }[];
  members?: {
    [k: string]: unknown;
  }[];
  color?: string | null;
  created_at?: string;
  default_view?: string;
  due_date?: string | null;
  due_on?: string | null;
  gid?: string;
  html_notes?: string | null;
  icon?: string | null;
  modified_at?: string;
  name?: string;
  notes?: string;
  permalink_url?: string;
  resource_type?: string | null;
  start_on?: string | null;
}
/**
 * Projects a task belongs to.
 */
export interface AsanaTaskProjectsActions {
  /**
   * Lists the projects of a task (P1).
   */
  list: {
    kind: 'records';
    params: AsanaTaskProjectsListParams;
    record: AsanaTaskProjectsRecord;
    meta: AsanaTaskProjectsListMeta;
  };
}
export interface AsanaTaskProjectsListParams {
  /**
   * Task gid.
   */
  task_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaTaskProjectsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTaskProjectsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Projects of a team.
 */
export interface AsanaTeamProjectsActions {
  /**
   * Lists the projects of a team (P1).
   */
  list: {
    kind: 'records';
    params: AsanaTeamProjectsListParams;
    record: AsanaTeamProjectsRecord;
    meta: AsanaTeamProjectsListMeta;
  };
}
export interface AsanaTeamProjectsListParams {
  /**
   * Team gid.
   */
  team_gid: string;
  /**
   * Only projects whose archived flag has this value.
   */
  archived?: boolean;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaTeamProjectsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTeamProjectsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Projects of a workspace.
 */
export interface AsanaWorkspaceProjectsActions {
  /**
   * Lists the projects of a workspace (P1).
   */
  list: {
    kind: 'records';
    params: AsanaWorkspaceProjectsListParams;
    record: AsanaWorkspaceProjectsRecord;
    meta: AsanaWorkspaceProjectsListMeta;
  };
}
export interface AsanaWorkspaceProjectsListParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
  /**
   * Only projects whose archived flag has this value.
   */
  archived?: boolean;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaWorkspaceProjectsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaWorkspaceProjectsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Workspaces and organizations the user can see.
 */
export interface AsanaWorkspacesActions {
  /**
   * Lists workspaces (P1).
   */
  list: {
    kind: 'records';
    params: AsanaWorkspacesListParams;
    record: AsanaWorkspacesRecord;
    meta: AsanaWorkspacesListMeta;
  };
  /**
   * Reads one workspace.
   */
  get: {
    kind: 'record';
    params: AsanaWorkspacesGetParams;
    record: AsanaWorkspacesRecord;
    meta: AsanaWorkspacesGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaWorkspacesSearchFields;
    hit: AsanaWorkspacesSearchHit;
  };
}
export interface AsanaWorkspacesListParams {
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaWorkspacesRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  email_domains?: string[];
  is_organization?: boolean;
  [k: string]: unknown;
}
export interface AsanaWorkspacesListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface AsanaWorkspacesGetParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
}
export interface AsanaWorkspacesGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaWorkspacesSearchFields {
  email_domains: 'array';
  is_organization: 'boolean';
  gid: 'string';
  name: 'string';
  resource_type: 'string';
}
export interface AsanaWorkspacesSearchHit {
  email_domains?: string[];
  is_organization?: boolean;
  gid?: string;
  name?: string;
  resource_type?: string | null;
}
/**
 * Users.
 */
export interface AsanaUsersActions {
  /**
   * Lists users (P1), optionally of a workspace or team; sorted by user id.
   */
  list: {
    kind: 'records';
    params: AsanaUsersListParams;
    record: AsanaUsersRecord;
    meta: AsanaUsersListMeta;
  };
  /**
   * Reads one user (gid, email, or me).
   */
  get: {
    kind: 'record';
    params: AsanaUsersGetParams;
    record: AsanaUsersRecord;
    meta: AsanaUsersGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaUsersSearchFields;
    hit: AsanaUsersSearchHit;
  };
}
export interface AsanaUsersListParams {
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Workspace gid.
   */
  workspace?: string;
  /**
   * Team gid.
   */
  team?: string;
}
export interface AsanaUsersRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  email?: string;
  photo?: {
    [k: string]: unknown;
  } | null;
  workspaces?: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
export interface AsanaUsersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface AsanaUsersGetParams {
  /**
   * User gid, email, or me.
   */
  user_gid: string;
}
export interface AsanaUsersGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaUsersSearchFields {
  email: 'string';
  gid: 'string';
  name: 'string';
  resource_type: 'string';
  photo: 'object';
  workspaces: 'array';
}
export interface AsanaUsersSearchHit {
  email?: string;
  gid?: string;
  name?: string;
  resource_type?: string | null;
  photo?: {
    [k: string]: unknown;
  } | null;
  workspaces?: {
    [k: string]: unknown;
  }[];
}
/**
 * Users of a workspace.
 */
export interface AsanaWorkspaceUsersActions {
  /**
   * Lists the users of a workspace (P1), sorted by user id, page by page.
   */
  list: {
    kind: 'records';
    params: AsanaWorkspaceUsersListParams;
    record: AsanaWorkspaceUsersRecord;
    meta: AsanaWorkspaceUsersListMeta;
  };
}
export interface AsanaWorkspaceUsersListParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaWorkspaceUsersRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaWorkspaceUsersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Users of a team.
 */
export interface AsanaTeamUsersActions {
  /**
   * Lists the users of a team (P1), sorted by user id, page by page.
   */
  list: {
    kind: 'records';
    params: AsanaTeamUsersListParams;
    record: AsanaTeamUsersRecord;
    meta: AsanaTeamUsersListMeta;
  };
}
export interface AsanaTeamUsersListParams {
  /**
   * Team gid.
   */
  team_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaTeamUsersRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTeamUsersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Teams of an organization.
 */
export interface AsanaWorkspaceTeamsActions {
  /**
   * Lists the teams of a workspace (P1).
   */
  list: {
    kind: 'records';
    params: AsanaWorkspaceTeamsListParams;
    record: AsanaWorkspaceTeamsRecord;
    meta: AsanaWorkspaceTeamsListMeta;
  };
}
export interface AsanaWorkspaceTeamsListParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaWorkspaceTeamsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaWorkspaceTeamsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Teams a user belongs to.
 */
export interface AsanaUserTeamsActions {
  /**
   * Lists the teams of a user in one organization (P1).
   */
  list: {
    kind: 'records';
    params: AsanaUserTeamsListParams;
    record: AsanaUserTeamsRecord;
    meta: AsanaUserTeamsListMeta;
  };
}
export interface AsanaUserTeamsListParams {
  /**
   * User gid, email, or me.
   */
  user_gid: string;
  /**
   * Workspace or organization to filter on.
   */
  organization: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaUserTeamsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaUserTeamsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Teams.
 */
export interface AsanaTeamsActions {
  /**
   * Reads one team.
   */
  get: {
    kind: 'record';
    params: AsanaTeamsGetParams;
    record: AsanaTeamsRecord;
    meta: AsanaTeamsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaTeamsSearchFields;
    hit: AsanaTeamsSearchHit;
  };
}
export interface AsanaTeamsGetParams {
  /**
   * Team gid.
   */
  team_gid: string;
}
export interface AsanaTeamsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  permalink_url?: string;
  organization?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface AsanaTeamsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaTeamsSearchFields {
  description: 'string';
  gid: 'string';
  html_description: 'string';
  name: 'string';
  permalink_url: 'string';
  resource_type: 'string';
  organization: 'object';
}
export interface AsanaTeamsSearchHit {
  description?: string | null;
  gid?: string;
  html_description?: string | null;
  name?: string;
  permalink_url?: string;
  resource_type?: string | null;
  organization?: {
    [k: string]: unknown;
  };
}
/**
 * Tags of a workspace.
 */
export interface AsanaWorkspaceTagsActions {
  /**
   * Lists the tags of a workspace (P1).
   */
  list: {
    kind: 'records';
    params: AsanaWorkspaceTagsListParams;
    record: AsanaWorkspaceTagsRecord;
    meta: AsanaWorkspaceTagsListMeta;
  };
}
export interface AsanaWorkspaceTagsListParams {
  /**
   * Workspace gid.
   */
  workspace_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaWorkspaceTagsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaWorkspaceTagsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Tags.
 */
export interface AsanaTagsActions {
  /**
   * Reads one tag.
   */
  get: {
    kind: 'record';
    params: AsanaTagsGetParams;
    record: AsanaTagsRecord;
    meta: AsanaTagsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaTagsSearchFields;
    hit: AsanaTagsSearchHit;
  };
}
export interface AsanaTagsGetParams {
  /**
   * Tag gid.
   */
  tag_gid: string;
}
export interface AsanaTagsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  color?: string | null;
  created_at?: string;
  notes?: string;
  permalink_url?: string;
  followers?: unknown[];
  workspace?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface AsanaTagsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaTagsSearchFields {
  color: 'string';
  gid: 'string';
  name: 'string';
  permalink_url: 'string';
  resource_type: 'string';
  followers: 'array';
  workspace: 'object';
}
export interface AsanaTagsSearchHit {
  color?: string | null;
  gid?: string;
  name?: string;
  permalink_url?: string;
  resource_type?: string | null;
  followers?: unknown[];
  workspace?: {
    [k: string]: unknown;
  };
}
/**
 * Sections of a project.
 */
export interface AsanaProjectSectionsActions {
  /**
   * Lists the sections of a project (P1).
   */
  list: {
    kind: 'records';
    params: AsanaProjectSectionsListParams;
    record: AsanaProjectSectionsRecord;
    meta: AsanaProjectSectionsListMeta;
  };
}
export interface AsanaProjectSectionsListParams {
  /**
   * Project gid.
   */
  project_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaProjectSectionsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaProjectSectionsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Sections.
 */
export interface AsanaSectionsActions {
  /**
   * Reads one section.
   */
  get: {
    kind: 'record';
    params: AsanaSectionsGetParams;
    record: AsanaSectionsRecord;
    meta: AsanaSectionsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaSectionsSearchFields;
    hit: AsanaSectionsSearchHit;
  };
}
export interface AsanaSectionsGetParams {
  /**
   * Section gid.
   */
  section_gid: string;
}
export interface AsanaSectionsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  created_at?: string;
  project?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface AsanaSectionsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaSectionsSearchFields {
  created_at: 'string';
  gid: 'string';
  name: 'string';
  resource_type: 'string';
  project: 'object';
}
export interface AsanaSectionsSearchHit {
  created_at?: string;
  gid?: string;
  name?: string;
  resource_type?: string | null;
  project?: {
    [k: string]: unknown;
  };
}
/**
 * Subtasks of a task.
 */
export interface AsanaTaskSubtasksActions {
  /**
   * Lists the subtasks of a task (T1).
   */
  list: {
    kind: 'records';
    params: AsanaTaskSubtasksListParams;
    record: AsanaTaskSubtasksRecord;
    meta: AsanaTaskSubtasksListMeta;
  };
}
export interface AsanaTaskSubtasksListParams {
  /**
   * Task gid.
   */
  task_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaTaskSubtasksRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTaskSubtasksListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Tasks a task depends on.
 */
export interface AsanaTaskDependenciesActions {
  /**
   * Lists the dependencies of a task (T1).
   */
  list: {
    kind: 'records';
    params: AsanaTaskDependenciesListParams;
    record: AsanaTaskDependenciesRecord;
    meta: AsanaTaskDependenciesListMeta;
  };
}
export interface AsanaTaskDependenciesListParams {
  /**
   * Task gid.
   */
  task_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaTaskDependenciesRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTaskDependenciesListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Tasks that depend on a task.
 */
export interface AsanaTaskDependentsActions {
  /**
   * Lists the dependents of a task (T1).
   */
  list: {
    kind: 'records';
    params: AsanaTaskDependentsListParams;
    record: AsanaTaskDependentsRecord;
    meta: AsanaTaskDependentsListMeta;
  };
}
export interface AsanaTaskDependentsListParams {
  /**
   * Task gid.
   */
  task_gid: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
}
export interface AsanaTaskDependentsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  [k: string]: unknown;
}
export interface AsanaTaskDependentsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
/**
 * Files attached to tasks and projects.
 */
export interface AsanaAttachmentsActions {
  /**
   * Lists the attachments of a task, project or project brief (attachment list record).
   */
  list: {
    kind: 'records';
    params: AsanaAttachmentsListParams;
    record: AsanaAttachmentsRecord;
    meta: AsanaAttachmentsListMeta;
  };
  /**
   * Reads one attachment (its download_url is valid for two minutes).
   */
  get: {
    kind: 'record';
    params: AsanaAttachmentsGetParams;
    record: AsanaAttachmentsRecord;
    meta: AsanaAttachmentsGetMeta;
  };
  /**
   * Streams the file: reads the attachment for a fresh download_url, then fetches it (with range_header as the Range header).
   */
  download: {
    kind: 'download';
    params: AsanaAttachmentsDownloadParams;
    record: AsanaAttachmentsRecord;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: AsanaAttachmentsSearchFields;
    hit: AsanaAttachmentsSearchHit;
  };
}
export interface AsanaAttachmentsListParams {
  /**
   * Gid of the object the files are attached to, e.g. a task.
   */
  parent: string;
  /**
   * Items per page, 1-100 (default 100; Asana only pages when a limit is sent).
   */
  limit?: number;
  /**
   * Offset token from meta.next_page.offset of the previous page. Asana offsets expire.
   */
  offset?: string;
  /**
   * Comma-separated fields to return instead of the default ones (Asana's opt_fields; gid always comes back).
   */
  opt_fields?: string;
}
export interface AsanaAttachmentsRecord {
  gid: string;
  resource_type?: string;
  name?: string;
  resource_subtype?: string;
  created_at?: string;
  host?: string;
  download_url?: string | null;
  permanent_url?: string | null;
  view_url?: string | null;
  parent?: {
    [k: string]: unknown;
  } | null;
  size?: number | null;
  [k: string]: unknown;
}
export interface AsanaAttachmentsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `next_page`, or null.
   */
  next_page: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface AsanaAttachmentsGetParams {
  /**
   * Attachment gid.
   */
  attachment_gid: string;
}
export interface AsanaAttachmentsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface AsanaAttachmentsDownloadParams {
  /**
   * Attachment gid.
   */
  attachment_gid: string;
  /**
   * An HTTP Range value for a partial download, e.g. bytes=0-1023.
   */
  range_header?: string;
}
export interface AsanaAttachmentsSearchFields {
  connected_to_app: 'boolean';
  size: 'integer';
  parent: 'object';
  created_at: 'string';
  download_url: 'string';
  gid: 'string';
  host: 'string';
  name: 'string';
  permanent_url: 'string';
  resource_subtype: 'string';
  resource_type: 'string';
  view_url: 'string';
}
export interface AsanaAttachmentsSearchHit {
  connected_to_app?: boolean | null;
  size?: number | null;
  parent?: {
    [k: string]: unknown;
  } | null;
  created_at?: string;
  download_url?: string | null;
  gid?: string;
  host?: string;
  name?: string;
  permanent_url?: string | null;
  resource_subtype?: string;
  resource_type?: string | null;
  view_url?: string | null;
}
/**
 * Gong
 */
export interface GongEntities {
  users: GongUsersActions;
  calls: GongCallsActions;
  calls_extensive: GongCallsExtensiveActions;
  call_transcripts: GongCallTranscriptsActions;
  workspaces: GongWorkspacesActions;
}
/**
 * Users of the company.
 */
export interface GongUsersActions {
  /**
   * Lists users.
   */
  list: {
    kind: 'records';
    params: GongUsersListParams;
    record: GongUsersRecord;
    meta: GongUsersListMeta;
  };
  /**
   * Reads one user.
   */
  get: {
    kind: 'record';
    params: GongUsersGetParams;
    record: GongUsersRecord;
    meta: GongUsersGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: GongUsersSearchFields;
    hit: GongUsersSearchHit;
  };
}
export interface GongUsersListParams {
  /**
   * Page token from meta.next_cursor (records.cursor of the previous page).
   */
  cursor?: string;
  /**
   * Include avatar URLs.
   */
  includeAvatars?: boolean;
}
export interface GongUsersRecord {
  id: string;
  [k: string]: unknown;
}
export interface GongUsersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `records.totalRecords`, or null.
   */
  total: unknown;
}
export interface GongUsersGetParams {
  /**
   * User id.
   */
  id: string;
}
export interface GongUsersGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface GongUsersSearchFields {
  id: 'string';
  emailAddress: 'string';
  firstName: 'string';
  lastName: 'string';
  title: 'string';
  phoneNumber: 'string';
  active: 'boolean';
  created: 'string';
  emailAliases: 'array';
  spokenLanguages: 'array';
}
export interface GongUsersSearchHit {
  id?: string;
  emailAddress?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  title?: string | null;
  phoneNumber?: string | null;
  active?: boolean | null;
  created?: string | null;
  emailAliases?: unknown[] | null;
  spokenLanguages?: unknown[] | null;
}
/**
 * Recorded calls (basic data).
 */
export interface GongCallsActions {
  /**
   * Lists calls, optionally of a period and a workspace.
   */
  list: {
    kind: 'records';
    params: GongCallsListParams;
    record: GongCallsRecord;
    meta: GongCallsListMeta;
  };
  /**
   * Reads one call.
   */
  get: {
    kind: 'record';
    params: GongCallsGetParams;
    record: GongCallsRecord;
    meta: GongCallsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: GongCallsSearchFields;
    hit: GongCallsSearchHit;
  };
}
export interface GongCallsListParams {
  /**
   * Calls that started on or after this ISO 8601 date-time.
   */
  fromDateTime?: string;
  /**
   * Calls that started before this ISO 8601 date-time (exclusive).
   */
  toDateTime?: string;
  /**
   * Workspace id.
   */
  workspaceId?: string;
  /**
   * Page token from meta.next_cursor (records.cursor of the previous page).
   */
  cursor?: string;
}
export interface GongCallsRecord {
  id: string;
  isPrivate?: boolean;
  [k: string]: unknown;
}
export interface GongCallsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `records.totalRecords`, or null.
   */
  total: unknown;
}
export interface GongCallsGetParams {
  /**
   * Call id.
   */
  id: string;
}
export interface GongCallsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface GongCallsSearchFields {
  id: 'string';
  title: 'string';
  url: 'string';
  scheduled: 'string';
  started: 'string';
  duration: 'integer';
  primaryUserId: 'string';
  direction: 'string';
  system: 'string';
  scope: 'string';
  media: 'string';
  language: 'string';
  workspaceId: 'string';
  isPrivate: 'boolean';
  meetingUrl: 'string';
}
export interface GongCallsSearchHit {
  id?: string;
  title?: string | null;
  url?: string | null;
  scheduled?: string | null;
  started?: string | null;
  duration?: number | null;
  primaryUserId?: string | null;
  direction?: string | null;
  system?: string | null;
  scope?: string | null;
  media?: string | null;
  language?: string | null;
  workspaceId?: string | null;
  isPrivate?: boolean;
  meetingUrl?: string | null;
}
/**
 * Calls with parties, content, interaction and media, as the content selector asks.
 */
export interface GongCallsExtensiveActions {
  /**
   * Lists calls in detail (a read-only POST; the cursor travels in the body).
   */
  list: {
    kind: 'records';
    params: GongCallsExtensiveListParams;
    record: GongCallsExtensiveRecord;
    meta: GongCallsExtensiveListMeta;
  };
}
export interface GongCallsExtensiveListParams {
  /**
   * Calls that started on or after this ISO 8601 date-time.
   */
  fromDateTime?: string;
  /**
   * Calls that started before this ISO 8601 date-time (exclusive).
   */
  toDateTime?: string;
  /**
   * Workspace id.
   */
  workspaceId?: string;
  /**
   * Call ids.
   */
  callIds?: string[];
  /**
   * Host user ids.
   */
  primaryUserIds?: string[];
  /**
   * What to include: context, exposedFields {parties, media, content, interaction, collaboration} (Gong's contentSelector).
   */
  contentSelector?: {
    [k: string]: unknown;
  };
  /**
   * Page token from meta.next_cursor (records.cursor of the previous page).
   */
  cursor?: string;
}
export interface GongCallsExtensiveRecord {
  metaData?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
export interface GongCallsExtensiveListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `records.totalRecords`, or null.
   */
  total: unknown;
}
/**
 * Transcripts of calls.
 */
export interface GongCallTranscriptsActions {
  /**
   * Lists call transcripts (a read-only POST; the cursor travels in the body).
   */
  list: {
    kind: 'records';
    params: GongCallTranscriptsListParams;
    record: GongCallTranscriptsRecord;
    meta: GongCallTranscriptsListMeta;
  };
}
export interface GongCallTranscriptsListParams {
  /**
   * Calls that started on or after this ISO 8601 date-time.
   */
  fromDateTime?: string;
  /**
   * Calls that started before this ISO 8601 date-time (exclusive).
   */
  toDateTime?: string;
  /**
   * Workspace id.
   */
  workspaceId?: string;
  /**
   * Call ids.
   */
  callIds?: string[];
  /**
   * Page token from meta.next_cursor (records.cursor of the previous page).
   */
  cursor?: string;
}
export interface GongCallTranscriptsRecord {
  callId?: string;
  transcript?: unknown[];
  [k: string]: unknown;
}
export interface GongCallTranscriptsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `records.totalRecords`, or null.
   */
  total: unknown;
}
/**
 * Workspaces of the company.
 */
export interface GongWorkspacesActions {
  /**
   * Lists workspaces (one response).
   */
  list: {
    kind: 'records';
    params: GongWorkspacesListParams;
    record: GongWorkspacesRecord;
    meta: GongWorkspacesListMeta;
  };
}
export interface GongWorkspacesRecord {
  id: string;
  [k: string]: unknown;
}
export interface GongWorkspacesListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * HubSpot CRM
 */
export interface HubspotEntities {
  contacts: HubspotContactsActions;
  companies: HubspotCompaniesActions;
  deals: HubspotDealsActions;
  tickets: HubspotTicketsActions;
  schemas: HubspotSchemasActions;
  objects: HubspotObjectsActions;
}
/**
 * CRM contacts.
 */
export interface HubspotContactsActions {
  /**
   * Lists records, one page at a time.
   */
  list: {
    kind: 'records';
    params: HubspotContactsListParams;
    record: HubspotContactsRecord;
    meta: HubspotContactsListMeta;
  };
  /**
   * Reads one contact by id (or by the property named in idProperty).
   */
  get: {
    kind: 'record';
    params: HubspotContactsGetParams;
    record: HubspotContactsRecord;
    meta: HubspotContactsGetMeta;
  };
  /**
   * Searches records in HubSpot with its filter-group syntax (read-only POST, retried like a GET).
   */
  api_search: {
    kind: 'records';
    params: HubspotContactsApiSearchParams;
    record: HubspotContactsRecord;
    meta: HubspotContactsApiSearchMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: HubspotContactsSearchFields;
    hit: HubspotContactsSearchHit;
  };
}
export interface HubspotContactsListParams {
  /**
   * Maximum results per page (HubSpot default 10, maximum 100).
   */
  limit?: number;
  /**
   * Paging cursor, from paging.next.after of the previous page (meta.next_cursor).
   */
  after?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotContactsRecord {
  id: string;
  properties: {
    [k: string]: string | null;
  };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string | null;
  propertiesWithHistory?: {
    [k: string]: unknown;
  } | null;
  associations?: {
    [k: string]: unknown;
  } | null;
  objectWriteTraceId?: string | null;
  url?: string | null;
  [k: string]: unknown;
}
export interface HubspotContactsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotContactsGetParams {
  /**
   * Contact id, or a value of the idProperty property.
   */
  contactId: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Name of a property whose values are unique for the object, used instead of the internal id.
   */
  idProperty?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotContactsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface HubspotContactsApiSearchParams {
  /**
   * Up to 6 groups of filters; filters inside a group are ANDed, groups are ORed.
   *
   * @maxItems 6
   */
  filterGroups?: {
    filters: {
      /**
       * Property to filter on.
       */
      propertyName: string;
      /**
       * Comparison operator.
       */
      operator:
        | 'BETWEEN'
        | 'CONTAINS_TOKEN'
        | 'EQ'
        | 'GT'
        | 'GTE'
        | 'HAS_PROPERTY'
        | 'IN'
        | 'LT'
        | 'LTE'
        | 'NEQ'
        | 'NOT_CONTAINS_TOKEN'
        | 'NOT_HAS_PROPERTY'
        | 'NOT_IN';
      /**
       * Value to match.
       */
      value?: string;
      /**
       * Upper bound for BETWEEN.
       */
      highValue?: string;
      /**
       * Values to match (IN, NOT_IN).
       */
      values?: string[];
    }[];
  }[];
  /**
   * Property names to include.
   */
  properties?: string[];
  /**
   * Maximum results per page (HubSpot default 10, maximum 200).
   */
  limit?: number;
  /**
   * Paging cursor (meta.next_cursor of the previous page).
   */
  after?: string;
  /**
   * Sort criteria.
   */
  sorts?: {
    /**
     * Property to sort by.
     */
    propertyName: string;
    /**
     * Sort direction.
     */
    direction?: 'ASCENDING' | 'DESCENDING';
  }[];
  /**
   * Search text, up to 3000 characters.
   */
  query?: string;
}
export interface HubspotContactsApiSearchMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `total`, or null.
   */
  total: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotContactsSearchFields {
  archived: 'boolean';
  companies: 'array';
  createdAt: 'string';
  id: 'string';
  properties: 'object';
  updatedAt: 'string';
}
export interface HubspotContactsSearchHit {
  archived?: boolean;
  companies?: unknown[] | null;
  createdAt?: string;
  id?: string;
  properties?: {
    [k: string]: string | null;
  };
  updatedAt?: string;
}
/**
 * CRM companies.
 */
export interface HubspotCompaniesActions {
  /**
   * Lists records, one page at a time.
   */
  list: {
    kind: 'records';
    params: HubspotCompaniesListParams;
    record: HubspotCompaniesRecord;
    meta: HubspotCompaniesListMeta;
  };
  /**
   * Reads one company by id (or by the property named in idProperty).
   */
  get: {
    kind: 'record';
    params: HubspotCompaniesGetParams;
    record: HubspotCompaniesRecord;
    meta: HubspotCompaniesGetMeta;
  };
  /**
   * Searches records in HubSpot with its filter-group syntax (read-only POST, retried like a GET).
   */
  api_search: {
    kind: 'records';
    params: HubspotCompaniesApiSearchParams;
    record: HubspotCompaniesRecord;
    meta: HubspotCompaniesApiSearchMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: HubspotCompaniesSearchFields;
    hit: HubspotCompaniesSearchHit;
  };
}
export interface HubspotCompaniesListParams {
  /**
   * Maximum results per page (HubSpot default 10, maximum 100).
   */
  limit?: number;
  /**
   * Paging cursor, from paging.next.after of the previous page (meta.next_cursor).
   */
  after?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotCompaniesRecord {
  id: string;
  properties: {
    [k: string]: string | null;
  };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string | null;
  propertiesWithHistory?: {
    [k: string]: unknown;
  } | null;
  associations?: {
    [k: string]: unknown;
  } | null;
  objectWriteTraceId?: string | null;
  url?: string | null;
  [k: string]: unknown;
}
export interface HubspotCompaniesListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotCompaniesGetParams {
  /**
   * Company id, or a value of the idProperty property.
   */
  companyId: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Name of a property whose values are unique for the object, used instead of the internal id.
   */
  idProperty?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotCompaniesGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface HubspotCompaniesApiSearchParams {
  /**
   * Up to 6 groups of filters; filters inside a group are ANDed, groups are ORed.
   *
   * @maxItems 6
   */
  filterGroups?: {
    filters: {
      /**
       * Property to filter on.
       */
      propertyName: string;
      /**
       * Comparison operator.
       */
      operator:
        | 'BETWEEN'
        | 'CONTAINS_TOKEN'
        | 'EQ'
        | 'GT'
        | 'GTE'
        | 'HAS_PROPERTY'
        | 'IN'
        | 'LT'
        | 'LTE'
        | 'NEQ'
        | 'NOT_CONTAINS_TOKEN'
        | 'NOT_HAS_PROPERTY'
        | 'NOT_IN';
      /**
       * Value to match.
       */
      value?: string;
      /**
       * Upper bound for BETWEEN.
       */
      highValue?: string;
      /**
       * Values to match (IN, NOT_IN).
       */
      values?: string[];
    }[];
  }[];
  /**
   * Property names to include.
   */
  properties?: string[];
  /**
   * Maximum results per page (HubSpot default 10, maximum 200).
   */
  limit?: number;
  /**
   * Paging cursor (meta.next_cursor of the previous page).
   */
  after?: string;
  /**
   * Sort criteria.
   */
  sorts?: {
    /**
     * Property to sort by.
     */
    propertyName: string;
    /**
     * Sort direction.
     */
    direction?: 'ASCENDING' | 'DESCENDING';
  }[];
  /**
   * Search text, up to 3000 characters.
   */
  query?: string;
}
export interface HubspotCompaniesApiSearchMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `total`, or null.
   */
  total: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotCompaniesSearchFields {
  archived: 'boolean';
  contacts: 'array';
  createdAt: 'string';
  id: 'string';
  properties: 'object';
  updatedAt: 'string';
}
export interface HubspotCompaniesSearchHit {
  archived?: boolean;
  contacts?: unknown[] | null;
  createdAt?: string;
  id?: string;
  properties?: {
    [k: string]: string | null;
  };
  updatedAt?: string;
}
/**
 * CRM deals.
 */
export interface HubspotDealsActions {
  /**
   * Lists records, one page at a time.
   */
  list: {
    kind: 'records';
    params: HubspotDealsListParams;
    record: HubspotDealsRecord;
    meta: HubspotDealsListMeta;
  };
  /**
   * Reads one deal by id (or by the property named in idProperty).
   */
  get: {
    kind: 'record';
    params: HubspotDealsGetParams;
    record: HubspotDealsRecord;
    meta: HubspotDealsGetMeta;
  };
  /**
   * Searches records in HubSpot with its filter-group syntax (read-only POST, retried like a GET).
   */
  api_search: {
    kind: 'records';
    params: HubspotDealsApiSearchParams;
    record: HubspotDealsRecord;
    meta: HubspotDealsApiSearchMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: HubspotDealsSearchFields;
    hit: HubspotDealsSearchHit;
  };
}
export interface HubspotDealsListParams {
  /**
   * Maximum results per page (HubSpot default 10, maximum 100).
   */
  limit?: number;
  /**
   * Paging cursor, from paging.next.after of the previous page (meta.next_cursor).
   */
  after?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotDealsRecord {
  id: string;
  properties: {
    [k: string]: string | null;
  };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string | null;
  propertiesWithHistory?: {
    [k: string]: unknown;
  } | null;
  associations?: {
    [k: string]: unknown;
  } | null;
  objectWriteTraceId?: string | null;
  url?: string | null;
  [k: string]: unknown;
}
export interface HubspotDealsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotDealsGetParams {
  /**
   * Deal id, or a value of the idProperty property.
   */
  dealId: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Name of a property whose values are unique for the object, used instead of the internal id.
   */
  idProperty?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotDealsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface HubspotDealsApiSearchParams {
  /**
   * Up to 6 groups of filters; filters inside a group are ANDed, groups are ORed.
   *
   * @maxItems 6
   */
  filterGroups?: {
    filters: {
      /**
       * Property to filter on.
       */
      propertyName: string;
      /**
       * Comparison operator.
       */
      operator:
        | 'BETWEEN'
        | 'CONTAINS_TOKEN'
        | 'EQ'
        | 'GT'
        | 'GTE'
        | 'HAS_PROPERTY'
        | 'IN'
        | 'LT'
        | 'LTE'
        | 'NEQ'
        | 'NOT_CONTAINS_TOKEN'
        | 'NOT_HAS_PROPERTY'
        | 'NOT_IN';
      /**
       * Value to match.
       */
      value?: string;
      /**
       * Upper bound for BETWEEN.
       */
      highValue?: string;
      /**
       * Values to match (IN, NOT_IN).
       */
      values?: string[];
    }[];
  }[];
  /**
   * Property names to include.
   */
  properties?: string[];
  /**
   * Maximum results per page (HubSpot default 10, maximum 200).
   */
  limit?: number;
  /**
   * Paging cursor (meta.next_cursor of the previous page).
   */
  after?: string;
  /**
   * Sort criteria.
   */
  sorts?: {
    /**
     * Property to sort by.
     */
    propertyName: string;
    /**
     * Sort direction.
     */
    direction?: 'ASCENDING' | 'DESCENDING';
  }[];
  /**
   * Search text, up to 3000 characters.
   */
  query?: string;
}
export interface HubspotDealsApiSearchMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `total`, or null.
   */
  total: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotDealsSearchFields {
  archived: 'boolean';
  companies: 'array';
  contacts: 'array';
  createdAt: 'string';
  id: 'string';
  line_items: 'array';
  properties: 'object';
  updatedAt: 'string';
}
export interface HubspotDealsSearchHit {
  archived?: boolean;
  companies?: unknown[] | null;
  contacts?: unknown[] | null;
  createdAt?: string;
  id?: string;
  line_items?: unknown[] | null;
  properties?: {
    [k: string]: string | null;
  };
  updatedAt?: string;
}
/**
 * CRM tickets.
 */
export interface HubspotTicketsActions {
  /**
   * Lists records, one page at a time.
   */
  list: {
    kind: 'records';
    params: HubspotTicketsListParams;
    record: HubspotTicketsRecord;
    meta: HubspotTicketsListMeta;
  };
  /**
   * Reads one ticket by id (or by the property named in idProperty).
   */
  get: {
    kind: 'record';
    params: HubspotTicketsGetParams;
    record: HubspotTicketsRecord;
    meta: HubspotTicketsGetMeta;
  };
  /**
   * Searches records in HubSpot with its filter-group syntax (read-only POST, retried like a GET).
   */
  api_search: {
    kind: 'records';
    params: HubspotTicketsApiSearchParams;
    record: HubspotTicketsRecord;
    meta: HubspotTicketsApiSearchMeta;
  };
}
export interface HubspotTicketsListParams {
  /**
   * Maximum results per page (HubSpot default 10, maximum 100).
   */
  limit?: number;
  /**
   * Paging cursor, from paging.next.after of the previous page (meta.next_cursor).
   */
  after?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotTicketsRecord {
  id: string;
  properties: {
    [k: string]: string | null;
  };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string | null;
  propertiesWithHistory?: {
    [k: string]: unknown;
  } | null;
  associations?: {
    [k: string]: unknown;
  } | null;
  objectWriteTraceId?: string | null;
  url?: string | null;
  [k: string]: unknown;
}
export interface HubspotTicketsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotTicketsGetParams {
  /**
   * Ticket id, or a value of the idProperty property.
   */
  ticketId: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Name of a property whose values are unique for the object, used instead of the internal id.
   */
  idProperty?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotTicketsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface HubspotTicketsApiSearchParams {
  /**
   * Up to 6 groups of filters; filters inside a group are ANDed, groups are ORed.
   *
   * @maxItems 6
   */
  filterGroups?: {
    filters: {
      /**
       * Property to filter on.
       */
      propertyName: string;
      /**
       * Comparison operator.
       */
      operator:
        | 'BETWEEN'
        | 'CONTAINS_TOKEN'
        | 'EQ'
        | 'GT'
        | 'GTE'
        | 'HAS_PROPERTY'
        | 'IN'
        | 'LT'
        | 'LTE'
        | 'NEQ'
        | 'NOT_CONTAINS_TOKEN'
        | 'NOT_HAS_PROPERTY'
        | 'NOT_IN';
      /**
       * Value to match.
       */
      value?: string;
      /**
       * Upper bound for BETWEEN.
       */
      highValue?: string;
      /**
       * Values to match (IN, NOT_IN).
       */
      values?: string[];
    }[];
  }[];
  /**
   * Property names to include.
   */
  properties?: string[];
  /**
   * Maximum results per page (HubSpot default 10, maximum 200).
   */
  limit?: number;
  /**
   * Paging cursor (meta.next_cursor of the previous page).
   */
  after?: string;
  /**
   * Sort criteria.
   */
  sorts?: {
    /**
     * Property to sort by.
     */
    propertyName: string;
    /**
     * Sort direction.
     */
    direction?: 'ASCENDING' | 'DESCENDING';
  }[];
  /**
   * Search text, up to 3000 characters.
   */
  query?: string;
}
export interface HubspotTicketsApiSearchMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * The answer's `total`, or null.
   */
  total: unknown;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
/**
 * Schemas of the account's custom object types.
 */
export interface HubspotSchemasActions {
  /**
   * Lists the custom object schemas (one response, no paging).
   */
  list: {
    kind: 'records';
    params: HubspotSchemasListParams;
    record: HubspotSchemasRecord;
    meta: HubspotSchemasListMeta;
  };
  /**
   * Reads one custom object schema.
   */
  get: {
    kind: 'record';
    params: HubspotSchemasGetParams;
    record: HubspotSchemasRecord;
    meta: HubspotSchemasGetMeta;
  };
}
export interface HubspotSchemasListParams {
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotSchemasRecord {
  id: string;
  name: string;
  objectTypeId?: string;
  fullyQualifiedName?: string;
  primaryDisplayProperty?: string;
  metaType?: string;
  createdAt?: string;
  updatedAt?: string;
  labels: {
    [k: string]: unknown;
  };
  requiredProperties: string[];
  searchableProperties?: string[];
  secondaryDisplayProperties?: string[];
  description?: string | null;
  allowsSensitiveProperties?: boolean;
  archived?: boolean;
  restorable?: boolean;
  createdByUserId?: number;
  updatedByUserId?: number;
  properties: {
    [k: string]: unknown;
  }[];
  associations: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
export interface HubspotSchemasListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface HubspotSchemasGetParams {
  /**
   * Fully qualified name or object type id (2-...).
   */
  objectType: string;
}
export interface HubspotSchemasGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Records of any object type, standard or custom, named by objectType.
 */
export interface HubspotObjectsActions {
  /**
   * Lists records, one page at a time.
   */
  list: {
    kind: 'records';
    params: HubspotObjectsListParams;
    record: HubspotObjectsRecord;
    meta: HubspotObjectsListMeta;
  };
  /**
   * Reads one record of any object type.
   */
  get: {
    kind: 'record';
    params: HubspotObjectsGetParams;
    record: HubspotObjectsRecord;
    meta: HubspotObjectsGetMeta;
  };
}
export interface HubspotObjectsListParams {
  /**
   * Object type id (0-1, 2-...) or fully qualified name.
   */
  objectType: string;
  /**
   * Maximum results per page (HubSpot default 10, maximum 100).
   */
  limit?: number;
  /**
   * Paging cursor, from paging.next.after of the previous page (meta.next_cursor).
   */
  after?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotObjectsRecord {
  id: string;
  properties: {
    [k: string]: string | null;
  };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string | null;
  propertiesWithHistory?: {
    [k: string]: unknown;
  } | null;
  associations?: {
    [k: string]: unknown;
  } | null;
  objectWriteTraceId?: string | null;
  url?: string | null;
  [k: string]: unknown;
}
export interface HubspotObjectsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
  /**
   * The answer's `paging.next.link`, or null.
   */
  next_link: unknown;
}
export interface HubspotObjectsGetParams {
  /**
   * Object type id (0-1, 2-...) or fully qualified name.
   */
  objectType: string;
  /**
   * Internal id, or a value of the idProperty property.
   */
  objectId: string;
  /**
   * Comma-separated property names to return. Unknown names are ignored.
   */
  properties?: string;
  /**
   * Comma-separated property names to return with their value history. Lowers the page maximum to 50.
   */
  propertiesWithHistory?: string;
  /**
   * Comma-separated associated object types to include (contacts, deals, tickets, custom type ids or fully qualified names).
   */
  associations?: string;
  /**
   * Name of a property whose values are unique for the object, used instead of the internal id.
   */
  idProperty?: string;
  /**
   * Return only archived results.
   */
  archived?: boolean;
}
export interface HubspotObjectsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Shopify
 */
export interface ShopifyEntities {
  shop: ShopifyShopActions;
  orders: ShopifyOrdersActions;
  products: ShopifyProductsActions;
  customers: ShopifyCustomersActions;
  draft_orders: ShopifyDraftOrdersActions;
  locations: ShopifyLocationsActions;
  collections: ShopifyCollectionsActions;
  order_transactions: ShopifyOrderTransactionsActions;
  order_fulfillments: ShopifyOrderFulfillmentsActions;
}
/**
 * The store itself.
 */
export interface ShopifyShopActions {
  /**
   * Reads the store's settings.
   */
  get: {
    kind: 'record';
    params: ShopifyShopGetParams;
    record: ShopifyShopRecord;
    meta: ShopifyShopGetMeta;
  };
}
export interface ShopifyShopRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyShopGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Orders (open ones unless status says otherwise).
 */
export interface ShopifyOrdersActions {
  /**
   * Lists orders, oldest id first (status open by default, as Shopify does).
   */
  list: {
    kind: 'records';
    params: ShopifyOrdersListParams;
    record: ShopifyOrdersRecord;
    meta: ShopifyOrdersListMeta;
  };
  /**
   * Reads one order.
   */
  get: {
    kind: 'record';
    params: ShopifyOrdersGetParams;
    record: ShopifyOrdersRecord;
    meta: ShopifyOrdersGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: ShopifyOrdersSearchFields;
    hit: ShopifyOrdersSearchHit;
  };
}
export interface ShopifyOrdersListParams {
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
  /**
   * Comma-separated ids.
   */
  ids?: string;
  /**
   * Only records with a greater id.
   */
  since_id?: number;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_max?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_max?: string;
  /**
   * ISO 8601 date-time bound.
   */
  processed_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  processed_at_max?: string;
  /**
   * Order name, e.g. #1001.
   */
  name?: string;
  /**
   * Order status (default open).
   */
  status?: 'open' | 'closed' | 'cancelled' | 'any';
  /**
   * Financial status.
   */
  financial_status?: 'authorized' | 'pending' | 'paid' | 'partially_paid' | 'refunded' | 'voided' | 'partially_refunded' | 'any' | 'unpaid';
  /**
   * Fulfillment status.
   */
  fulfillment_status?: 'shipped' | 'partial' | 'unshipped' | 'any' | 'unfulfilled';
}
export interface ShopifyOrdersRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyOrdersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface ShopifyOrdersGetParams {
  /**
   * Record id.
   */
  order_id: number;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
}
export interface ShopifyOrdersGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface ShopifyOrdersSearchFields {
  id: 'integer';
  name: 'string';
  email: 'string';
  phone: 'string';
  created_at: 'string';
  updated_at: 'string';
  processed_at: 'string';
  cancelled_at: 'string';
  closed_at: 'string';
  financial_status: 'string';
  fulfillment_status: 'string';
  currency: 'string';
  total_price: 'string';
  subtotal_price: 'string';
  tags: 'string';
  note: 'string';
  test: 'boolean';
  customer: 'object';
  billing_address: 'object';
  shipping_address: 'object';
  line_items: 'array';
  discount_codes: 'array';
}
export interface ShopifyOrdersSearchHit {
  id?: number;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  processed_at?: string | null;
  cancelled_at?: string | null;
  closed_at?: string | null;
  financial_status?: string | null;
  fulfillment_status?: string | null;
  currency?: string | null;
  total_price?: string | null;
  subtotal_price?: string | null;
  tags?: string | null;
  note?: string | null;
  test?: boolean | null;
  customer?: {
    [k: string]: unknown;
  } | null;
  billing_address?: {
    [k: string]: unknown;
  } | null;
  shipping_address?: {
    [k: string]: unknown;
  } | null;
  line_items?: unknown[] | null;
  discount_codes?: unknown[] | null;
}
/**
 * Products with their variants and images.
 */
export interface ShopifyProductsActions {
  /**
   * Lists products, oldest id first.
   */
  list: {
    kind: 'records';
    params: ShopifyProductsListParams;
    record: ShopifyProductsRecord;
    meta: ShopifyProductsListMeta;
  };
  /**
   * Reads one product.
   */
  get: {
    kind: 'record';
    params: ShopifyProductsGetParams;
    record: ShopifyProductsRecord;
    meta: ShopifyProductsGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: ShopifyProductsSearchFields;
    hit: ShopifyProductsSearchHit;
  };
}
export interface ShopifyProductsListParams {
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
  /**
   * Comma-separated ids.
   */
  ids?: string;
  /**
   * Only records with a greater id.
   */
  since_id?: number;
  /**
   * Product title.
   */
  title?: string;
  /**
   * Vendor.
   */
  vendor?: string;
  /**
   * Handle.
   */
  handle?: string;
  /**
   * Product type.
   */
  product_type?: string;
  /**
   * Product status.
   */
  status?: 'active' | 'archived' | 'draft';
  /**
   * Only products in this collection.
   */
  collection_id?: number;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_max?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_max?: string;
  /**
   * Publication status.
   */
  published_status?: 'published' | 'unpublished' | 'any';
}
export interface ShopifyProductsRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyProductsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface ShopifyProductsGetParams {
  /**
   * Record id.
   */
  product_id: number;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
}
export interface ShopifyProductsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface ShopifyProductsSearchFields {
  id: 'integer';
  title: 'string';
  body_html: 'string';
  vendor: 'string';
  product_type: 'string';
  handle: 'string';
  status: 'string';
  tags: 'string';
  created_at: 'string';
  updated_at: 'string';
  published_at: 'string';
  variants: 'array';
  options: 'array';
}
export interface ShopifyProductsSearchHit {
  id?: number;
  title?: string | null;
  body_html?: string | null;
  vendor?: string | null;
  product_type?: string | null;
  handle?: string | null;
  status?: string | null;
  tags?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  published_at?: string | null;
  variants?: unknown[] | null;
  options?: unknown[] | null;
}
/**
 * Customers with their addresses.
 */
export interface ShopifyCustomersActions {
  /**
   * Lists customers, oldest id first.
   */
  list: {
    kind: 'records';
    params: ShopifyCustomersListParams;
    record: ShopifyCustomersRecord;
    meta: ShopifyCustomersListMeta;
  };
  /**
   * Reads one customer.
   */
  get: {
    kind: 'record';
    params: ShopifyCustomersGetParams;
    record: ShopifyCustomersRecord;
    meta: ShopifyCustomersGetMeta;
  };
  /**
   * Searches the synchronized copy (needs a store, or the hosted service).
   */
  search: {
    kind: 'search';
    fields: ShopifyCustomersSearchFields;
    hit: ShopifyCustomersSearchHit;
  };
}
export interface ShopifyCustomersListParams {
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
  /**
   * Comma-separated ids.
   */
  ids?: string;
  /**
   * Only records with a greater id.
   */
  since_id?: number;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  created_at_max?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_max?: string;
}
export interface ShopifyCustomersRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyCustomersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface ShopifyCustomersGetParams {
  /**
   * Record id.
   */
  customer_id: number;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
}
export interface ShopifyCustomersGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface ShopifyCustomersSearchFields {
  id: 'integer';
  email: 'string';
  first_name: 'string';
  last_name: 'string';
  phone: 'string';
  state: 'string';
  tags: 'string';
  note: 'string';
  currency: 'string';
  total_spent: 'string';
  orders_count: 'integer';
  verified_email: 'boolean';
  tax_exempt: 'boolean';
  created_at: 'string';
  updated_at: 'string';
  default_address: 'object';
  addresses: 'array';
}
export interface ShopifyCustomersSearchHit {
  id?: number;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  state?: string | null;
  tags?: string | null;
  note?: string | null;
  currency?: string | null;
  total_spent?: string | null;
  orders_count?: number | null;
  verified_email?: boolean | null;
  tax_exempt?: boolean | null;
  created_at?: string | null;
  updated_at?: string | null;
  default_address?: {
    [k: string]: unknown;
  } | null;
  addresses?: unknown[] | null;
}
/**
 * Draft orders.
 */
export interface ShopifyDraftOrdersActions {
  /**
   * Lists draft orders, oldest id first.
   */
  list: {
    kind: 'records';
    params: ShopifyDraftOrdersListParams;
    record: ShopifyDraftOrdersRecord;
    meta: ShopifyDraftOrdersListMeta;
  };
  /**
   * Reads one draft order.
   */
  get: {
    kind: 'record';
    params: ShopifyDraftOrdersGetParams;
    record: ShopifyDraftOrdersRecord;
    meta: ShopifyDraftOrdersGetMeta;
  };
}
export interface ShopifyDraftOrdersListParams {
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
  /**
   * Comma-separated ids.
   */
  ids?: string;
  /**
   * Only records with a greater id.
   */
  since_id?: number;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_min?: string;
  /**
   * ISO 8601 date-time bound.
   */
  updated_at_max?: string;
  /**
   * Draft order status.
   */
  status?: 'open' | 'invoice_sent' | 'completed';
}
export interface ShopifyDraftOrdersRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyDraftOrdersListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface ShopifyDraftOrdersGetParams {
  /**
   * Record id.
   */
  draft_order_id: number;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
}
export interface ShopifyDraftOrdersGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Store locations (shops, warehouses).
 */
export interface ShopifyLocationsActions {
  /**
   * Lists every location (one response).
   */
  list: {
    kind: 'records';
    params: ShopifyLocationsListParams;
    record: ShopifyLocationsRecord;
    meta: ShopifyLocationsListMeta;
  };
  /**
   * Reads one location.
   */
  get: {
    kind: 'record';
    params: ShopifyLocationsGetParams;
    record: ShopifyLocationsRecord;
    meta: ShopifyLocationsGetMeta;
  };
}
export interface ShopifyLocationsRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyLocationsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
export interface ShopifyLocationsGetParams {
  /**
   * Record id.
   */
  location_id: number;
}
export interface ShopifyLocationsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Product collections: custom (hand-picked) and smart (rule-based).
 */
export interface ShopifyCollectionsActions {
  /**
   * Lists custom or smart collections.
   */
  list: {
    kind: 'records';
    params: ShopifyCollectionsListParams;
    record: ShopifyCollectionsRecord;
    meta: ShopifyCollectionsListMeta;
  };
  /**
   * Reads one collection of either kind.
   */
  get: {
    kind: 'record';
    params: ShopifyCollectionsGetParams;
    record: ShopifyCollectionsRecord;
    meta: ShopifyCollectionsGetMeta;
  };
}
export interface ShopifyCollectionsListParams {
  /**
   * custom (hand-picked) or smart (rule-based) collections; Shopify lists them apart.
   */
  collection_type: 'custom' | 'smart';
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
  /**
   * Comma-separated ids.
   */
  ids?: string;
  /**
   * Only records with a greater id.
   */
  since_id?: number;
  /**
   * Collection title.
   */
  title?: string;
  /**
   * Handle.
   */
  handle?: string;
}
export interface ShopifyCollectionsRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyCollectionsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
export interface ShopifyCollectionsGetParams {
  /**
   * Record id.
   */
  collection_id: number;
}
export interface ShopifyCollectionsGetMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Payment transactions of one order.
 */
export interface ShopifyOrderTransactionsActions {
  /**
   * Lists the transactions of an order (one response).
   */
  list: {
    kind: 'records';
    params: ShopifyOrderTransactionsListParams;
    record: ShopifyOrderTransactionsRecord;
    meta: ShopifyOrderTransactionsListMeta;
  };
}
export interface ShopifyOrderTransactionsListParams {
  /**
   * Order id.
   */
  order_id: number;
}
export interface ShopifyOrderTransactionsRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyOrderTransactionsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
}
/**
 * Fulfillments of one order.
 */
export interface ShopifyOrderFulfillmentsActions {
  /**
   * Lists the fulfillments of an order.
   */
  list: {
    kind: 'records';
    params: ShopifyOrderFulfillmentsListParams;
    record: ShopifyOrderFulfillmentsRecord;
    meta: ShopifyOrderFulfillmentsListMeta;
  };
}
export interface ShopifyOrderFulfillmentsListParams {
  /**
   * Order id.
   */
  order_id: number;
  /**
   * Records per page, 1-250 (default 250 here; Shopify's own default is 50).
   */
  limit?: number;
  /**
   * Page token from meta.next_cursor; it carries the first page's filters, so only limit and fields may go with it.
   */
  page_info?: string;
  /**
   * Comma-separated fields to return.
   */
  fields?: string;
}
export interface ShopifyOrderFulfillmentsRecord {
  id: number;
  [k: string]: unknown;
}
export interface ShopifyOrderFulfillmentsListMeta {
  /**
   * Whether more records may follow.
   */
  has_more: boolean;
  /**
   * Pass it back, as it is, in the paging param for the next page; null on the last page.
   */
  next_cursor: string | null;
}
