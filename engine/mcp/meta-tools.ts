import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { READ_ONLY, type ToolEntry } from './action-tools.js';
import { describeEntity, entityList } from './describe-entity.js';
import type { McpConnector } from './mcp-connector.js';
import { argsChecker } from './tool-args.js';
import { jsonResult } from './tool-result.js';
import { describeToolName, entitiesToolName, syncToolName } from './tool-names.js';

const LOCAL = { ...READ_ONLY, openWorldHint: false } as const;

/** The tool an agent starts with: the connector's entities, what each is for, and their tools. */
export function entitiesTool(connector: McpConnector): ToolEntry {
  const tool: Tool = {
    name: entitiesToolName(connector.prefix),
    description: `${connector.title}: lists its entities, what each is and when to use it, and the tools of each. Start here.`,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: LOCAL,
  };
  const check = argsChecker(tool.name, tool.inputSchema);
  return {
    tool,
    run: async (args) => {
      check(args);
      return jsonResult(entityList(connector));
    },
  };
}

/** Describes one entity: actions with their input schemas and rules, record fields, searchable fields. */
export function describeTool(connector: McpConnector, inputSchemas: Map<string, unknown>): ToolEntry {
  const entities = Object.keys(connector.manifest.entities);
  const tool: Tool = {
    name: describeToolName(connector.prefix),
    description: `${connector.title}: describes one entity: its actions (tool names, params, rules), its record fields and, where it can be searched, its searchable fields.`,
    inputSchema: {
      type: 'object',
      properties: { entity: { type: 'string', enum: entities, description: 'Entity name.' } },
      required: ['entity'],
      additionalProperties: false,
    },
    annotations: LOCAL,
  };
  const check = argsChecker(tool.name, tool.inputSchema);
  return { tool, run: async (args) => jsonResult(describeEntity(connector, check(args).entity, inputSchemas)) };
}

/** Runs a sync pass of the local copy (the stdio server with a store), so the search tools have something to read. */
export function syncTool(connector: McpConnector, sync: NonNullable<McpConnector['sync']>): ToolEntry {
  const synced = Object.entries(connector.manifest.entities)
    .filter(([, spec]) => spec.sync)
    .map(([name]) => name);
  const tool: Tool = {
    name: syncToolName(connector.prefix),
    description: `${connector.title}: reads the upstream into the local copy the search tools read (every entity with a sync plan, or the ones named), and answers each entity's sync state. A full pass reads everything; otherwise only what changed, where the upstream allows.`,
    inputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: synced },
          description: 'Only these entities (default: all of them).',
        },
        full: { type: 'boolean', description: 'Read everything, even where an incremental pass would do.' },
      },
      additionalProperties: false,
    },
    // It writes the local copy only; the upstream is read, never changed.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  };
  const check = argsChecker(tool.name, tool.inputSchema);
  return {
    tool,
    run: async (args) => {
      const { entities, full } = check(args);
      const named = Array.isArray(entities) ? entities.filter((entity): entity is string => typeof entity === 'string') : undefined;
      return jsonResult({ entities: await sync({ ...(named ? { entities: named } : {}), ...(full === true ? { full: true } : {}) }) });
    },
  };
}
