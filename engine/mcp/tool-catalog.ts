import { declaredActionTool, searchTool, type ToolEntry } from './action-tools.js';
import type { McpConnector } from './mcp-connector.js';
import { describeTool, entitiesTool, syncTool } from './meta-tools.js';

/** A connector's action tools: one per entity and action, `search` where the connector has a copy. */
function actionTools(connector: McpConnector): ToolEntry[] {
  const tools: ToolEntry[] = [];
  for (const [entity, spec] of Object.entries(connector.manifest.entities)) {
    for (const [action, actionSpec] of Object.entries(spec.actions)) tools.push(declaredActionTool(connector, entity, spec, action, actionSpec));
    if (connector.searchable && spec.sync) tools.push(searchTool(connector, entity, spec));
  }
  return tools;
}

/**
 * Every tool of a set of connectors, by name, generated from their manifests: per connector the
 * entities and describe tools, the action tools, and the sync tool where the connector can sync.
 */
export function toolCatalog(connectors: readonly McpConnector[]): Map<string, ToolEntry> {
  const catalog = new Map<string, ToolEntry>();
  for (const connector of connectors) {
    const actions = actionTools(connector);
    const schemas = new Map<string, unknown>(actions.map((entry) => [entry.tool.name, entry.tool.inputSchema]));
    const sync = connector.sync ? [syncTool(connector, connector.sync.bind(connector))] : [];
    for (const entry of [entitiesTool(connector), describeTool(connector, schemas), ...actions, ...sync]) catalog.set(entry.tool.name, entry);
  }
  return catalog;
}
