import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// The low-level Server, not McpServer: tools here are generated from manifests with JSON Schema
// inputs, which McpServer's registerTool (zod schemas) cannot take.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { packageRoot } from '../package-root.js';
import type { McpConnector } from './mcp-connector.js';
import { isObject } from './schema-parts.js';
import { toolCatalog } from './tool-catalog.js';
import { errorResult } from './tool-result.js';
import { entitiesToolName } from './tool-names.js';

/** What a server is made of: its connectors, and where unexpected failures are logged. */
export interface McpServerOptions {
  connectors: readonly McpConnector[];
  /** Told of failures that are not engine errors (their details never go to the agent). */
  log: (error: unknown) => void;
}

/** The package's version, which the server names at initialize. */
function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
  return isObject(pkg) && typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/** What the server tells an agent at initialize: how tools are named and where to start. */
function instructions(connectors: readonly McpConnector[]): string {
  const starts = connectors.map((connector) => `${entitiesToolName(connector.prefix)} (${connector.title})`).join(', ');
  return `Tools are named <connector>-<entity>-<action> and only read. Start with ${starts || 'no connector: none is set up'}; <connector>-describe tells an entity's params and fields. Paged tools answer next_cursor: pass it back as cursor to read on.`;
}

/**
 * An MCP server whose tools are the connectors' entities and actions. Failures come back as tool
 * errors carrying the engine's code and message; an unknown tool name is a protocol error, as the
 * MCP spec says.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const catalog = toolCatalog(options.connectors);
  const server = new Server(
    { name: 'connector-engine', version: packageVersion() },
    { capabilities: { tools: {} }, instructions: instructions(options.connectors) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...catalog.values()].map((entry) => entry.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = catalog.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await entry.run(request.params.arguments ?? {});
    } catch (error) {
      return errorResult(error, options.log);
    }
  });
  return server;
}
