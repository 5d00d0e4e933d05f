/**
 * The MCP server: tools generated from connector manifests (one per entity and action, plus
 * entities, describe and sync), answers cut to a budget with a cursor to read on, and engine
 * errors as tool errors. The CLI serves it over stdio, the hosted service over streamable HTTP.
 * This file is the folder's only door.
 */
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export type { ActionAnswer, McpConnector } from './mcp-connector.js';
export { hostedToolPrefix } from './tool-names.js';
export { MCP_BUDGET } from './result-budget.js';
