/**
 * The one example call of each entity on its reference page: which action, and its params.
 * Params that name an object come from the sandbox (its named objects, or the first record of
 * another entity's example answer), so the examples stay true when the fakes' data changes.
 * Every entity of every manifest needs one: the pages fail to generate otherwise.
 */
import { CAR_OBJECT_TYPE_ID, type SandboxFakes } from '../../engine/sandbox/index.js';

/** What an example's params may read. */
export interface ExampleContext {
  fakes: SandboxFakes;
  /** The first record of another entity's example answer (that example runs first if it has not). */
  first(entity: string): Promise<Record<string, unknown>>;
}

/** Params as written, or made from the sandbox. */
export type ExampleParams = Record<string, unknown> | ((context: ExampleContext) => Record<string, unknown> | Promise<Record<string, unknown>>);

/** One example call: `execute(entity, action, params)`. */
export interface ExampleCall {
  action: string;
  params: ExampleParams;
}

const list = (params: ExampleParams = {}): ExampleCall => ({ action: 'list', params });
const get = (params: ExampleParams): ExampleCall => ({ action: 'get', params });

function asana(fakes: SandboxFakes) {
  return fakes.asana.anchors;
}

/** The parent task of the sandbox's Asana-hosted attachment. */
function attachmentParent(fakes: SandboxFakes): string {
  const gid = asana(fakes).attachments.asana;
  const attachment = fakes.asana.dataset.attachments.find((candidate) => candidate.gid === gid);
  if (!attachment) throw new Error(`the Asana fake has no attachment ${gid}`);
  return attachment.parentGid;
}

const firstId = async (context: ExampleContext, entity: string, field: string): Promise<unknown> => (await context.first(entity))[field];

/** Connector type -> entity -> its example. */
export const EXAMPLE_CALLS: Record<string, Record<string, ExampleCall>> = {
  hubspot: {
    contacts: list({ limit: 2 }),
    companies: list({ limit: 2 }),
    deals: list({ limit: 2 }),
    tickets: list({ limit: 2 }),
    schemas: list(),
    objects: list({ objectType: CAR_OBJECT_TYPE_ID, limit: 2 }),
  },
  asana: {
    tasks: get(({ fakes }) => ({ task_gid: asana(fakes).taskWithSubtasksGid })),
    project_tasks: list(({ fakes }) => ({ project_gid: asana(fakes).bigProjectGid, limit: 2 })),
    workspace_task_search: list(({ fakes }) => ({ workspace_gid: asana(fakes).premiumWorkspaceGid, text: 'launch', limit: 2 })),
    projects: list(({ fakes }) => ({ workspace: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    task_projects: list(({ fakes }) => ({ task_gid: asana(fakes).multiHomedTaskGid })),
    team_projects: list(({ fakes }) => ({ team_gid: asana(fakes).teamGid, limit: 2 })),
    workspace_projects: list(({ fakes }) => ({ workspace_gid: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    workspaces: list(),
    users: list(({ fakes }) => ({ workspace: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    workspace_users: list(({ fakes }) => ({ workspace_gid: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    team_users: list(({ fakes }) => ({ team_gid: asana(fakes).teamGid, limit: 2 })),
    workspace_teams: list(({ fakes }) => ({ workspace_gid: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    user_teams: list(({ fakes }) => ({ user_gid: asana(fakes).meGid, organization: asana(fakes).premiumWorkspaceGid })),
    teams: get(({ fakes }) => ({ team_gid: asana(fakes).teamGid })),
    workspace_tags: list(({ fakes }) => ({ workspace_gid: asana(fakes).premiumWorkspaceGid, limit: 2 })),
    tags: get(({ fakes }) => ({ tag_gid: asana(fakes).tagGid })),
    project_sections: list(({ fakes }) => ({ project_gid: asana(fakes).bigProjectGid, limit: 2 })),
    sections: get(({ fakes }) => ({ section_gid: asana(fakes).sectionGid })),
    task_subtasks: list(({ fakes }) => ({ task_gid: asana(fakes).taskWithSubtasksGid })),
    task_dependencies: list(({ fakes }) => ({ task_gid: asana(fakes).taskWithDependenciesGid })),
    task_dependents: list(({ fakes }) => ({ task_gid: asana(fakes).taskWithDependentsGid })),
    attachments: list(({ fakes }) => ({ parent: attachmentParent(fakes) })),
  },
  'amazon-ads': {
    profiles: list(),
    portfolios: list(),
    sponsored_product_campaigns: list({ maxResults: 2 }),
  },
  shopify: {
    shop: get({}),
    orders: list({ limit: 2 }),
    products: list({ limit: 2 }),
    customers: list({ limit: 2 }),
    draft_orders: list({ limit: 2 }),
    locations: list(),
    collections: list({ collection_type: 'smart', limit: 2 }),
    order_transactions: list(async (context) => ({ order_id: await firstId(context, 'orders', 'id') })),
    order_fulfillments: list(async (context) => ({ order_id: await firstId(context, 'orders', 'id'), limit: 2 })),
  },
  gong: {
    users: list(),
    calls: list(),
    calls_extensive: list(async (context) => ({ callIds: [await firstId(context, 'calls', 'id')] })),
    call_transcripts: list(async (context) => ({ callIds: [await firstId(context, 'calls', 'id')] })),
    workspaces: list(),
  },
};
