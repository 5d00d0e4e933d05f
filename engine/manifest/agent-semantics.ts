import type { ActionSpec, Manifest } from './types.js';

type PathPart = string | number;

/** One problem, located by its path in the manifest data (as semantics.ts reports them). */
export interface AgentProblem {
  path: PathPart[];
  message: string;
}

/**
 * The longest tool name MCP clients take: MCP's SEP-986 (tool name format) says 1 to 64
 * characters, and the model APIs behind most clients take `^[a-zA-Z0-9_-]{1,64}$` (no dots), so
 * tool names use letters, digits, `_` and `-` only.
 */
export const MAX_TOOL_NAME = 64;

/** How many characters of a connector's id the hosted MCP endpoint puts into its tool names. */
export const TOOL_ID_CHARS = 6;

/** An entity's action names, `search` included where a sync plan gives it one. */
function actionNames(entity: { actions: Record<string, ActionSpec>; sync?: unknown }): string[] {
  return [...Object.keys(entity.actions), ...(entity.sync ? ['search'] : [])];
}

/** The action's declared param names. */
function paramNames(action: ActionSpec): string[] {
  const props = action.params?.properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

/**
 * A list-like action's tool pages with its own `cursor` argument, which takes the place of the
 * action's pagination param; another param of that name would be hidden from agents. A pagination
 * param that is not declared is reported by the pagination check already, and fixing it decides.
 */
function cursorProblems(manifest: Manifest): AgentProblem[] {
  const problems: AgentProblem[] = [];
  for (const [entityName, entity] of Object.entries(manifest.entities)) {
    for (const [actionName, action] of Object.entries(entity.actions)) {
      const params = paramNames(action);
      const paging = action.pagination && 'param' in action.pagination ? action.pagination.param : undefined;
      if (action.response.records === undefined || !params.includes('cursor') || paging === 'cursor' || (paging !== undefined && !params.includes(paging)))
        continue;
      problems.push({
        path: ['entities', entityName, 'actions', actionName, 'params', 'properties', 'cursor'],
        message: 'a param named "cursor" must be the pagination param: MCP tools page with their own "cursor" argument, which would hide this one',
      });
    }
  }
  return problems;
}

/** Every tool name of the hosted endpoint (`<type>-<id>-<entity>-<action>`) must fit MAX_TOOL_NAME. */
function nameLengthProblems(manifest: Manifest): AgentProblem[] {
  const problems: AgentProblem[] = [];
  const prefix = `${manifest.type}-${'x'.repeat(TOOL_ID_CHARS)}`;
  for (const [entityName, entity] of Object.entries(manifest.entities)) {
    const longest = actionNames(entity)
      .map((action) => `${prefix}-${entityName}-${action}`)
      .reduce((a, b) => (b.length > a.length ? b : a));
    if (longest.length > MAX_TOOL_NAME) {
      problems.push({
        path: ['entities', entityName],
        message: `MCP tool names of "${entityName}" reach ${longest.length} characters (${longest}, x for the connector id); clients take at most ${MAX_TOOL_NAME}: shorten the type or the entity name`,
      });
    }
  }
  return problems;
}

/**
 * Load-time checks of what agents see through the MCP server, so that a manifest cannot make a
 * tool that clients refuse or that hides a param.
 */
export function checkAgentSurface(manifest: Manifest): AgentProblem[] {
  return [...cursorProblems(manifest), ...nameLengthProblems(manifest)];
}
