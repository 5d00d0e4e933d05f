import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ActionSpec, EntitySpec } from '../manifest/index.js';
import { DownloadStream, pagingOf } from '../runtime/index.js';
import { searchParamsSchema } from '../sync/index.js';
import { fileAnswer } from './file-answer.js';
import type { ActionAnswer, McpConnector } from './mcp-connector.js';
import { decodeCursor, type PageCursor } from './page-cursor.js';
import { listAnswer, searchAnswer, type PagedCall } from './paged-answer.js';
import { MCP_BUDGET } from './result-budget.js';
import { schemaProperties, schemaRequired } from './schema-parts.js';
import { jsonResult } from './tool-result.js';
import { actionToolName } from './tool-names.js';
import { actionText, CURSOR_SCHEMA } from './tool-text.js';

/** One tool: what tools/list shows, and what runs on tools/call. */
export interface ToolEntry {
  tool: Tool;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

/** Every tool only reads: no upstream record is ever changed through it. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/**
 * A tool's input schema from the action's params schema: the action's own page param gives way to
 * the tool's `cursor` (which carries it), so an agent has one way to read on.
 */
function toolInput(params: Record<string, unknown> | undefined, hidden: string | undefined, paged: boolean): Tool['inputSchema'] {
  const { properties: _properties, required: _required, ...rest } = params ?? {};
  const own = schemaProperties(params);
  if (hidden !== undefined) delete own[hidden];
  const kept = schemaRequired(params).filter((name) => name !== hidden);
  return { ...rest, type: 'object', properties: paged ? { ...own, cursor: CURSOR_SCHEMA } : own, ...(kept.length > 0 ? { required: kept } : {}) };
}

/** Search pages are cut to the record budget by their own `limit`, so the copy reads no more than an answer carries. */
function searchLimit(params: Record<string, unknown>): Record<string, unknown> {
  const { limit } = params;
  if (limit === undefined || (typeof limit === 'number' && limit > MCP_BUDGET.records)) return { ...params, limit: MCP_BUDGET.records };
  return params;
}

/** Where a paged call starts: at the cursor, or at the first page of the arguments. */
function startOf(tool: string, args: Record<string, unknown>): PageCursor {
  if (args.cursor !== undefined) return decodeCursor(tool, args.cursor);
  const { cursor: _cursor, ...params } = args;
  return { params, skip: 0 };
}

/** How one action's answers become tool answers. */
interface Shaping {
  tool: string;
  paged: boolean;
  search: boolean;
  nextParams(params: Record<string, unknown>, token: string | number): Record<string, unknown>;
}

async function answer(result: ActionAnswer, call: PagedCall | undefined, tool: string): Promise<CallToolResult> {
  if (result instanceof DownloadStream) return fileAnswer(result, tool);
  if ('hits' in result) return jsonResult(call ? searchAnswer(result, call) : result);
  if (call && Array.isArray(result.data)) return jsonResult(listAnswer({ data: result.data, meta: result.meta }, call));
  return jsonResult(result);
}

function runner(connector: McpConnector, entity: string, action: string, shaping: Shaping): ToolEntry['run'] {
  return async (args) => {
    if (!shaping.paged) return answer(await connector.execute(entity, action, args), undefined, shaping.tool);
    const start = startOf(shaping.tool, args);
    const params = shaping.search ? searchLimit(start.params) : start.params;
    const call: PagedCall = { tool: shaping.tool, start: { params, skip: start.skip }, nextParams: (token) => shaping.nextParams(params, token) };
    return answer(await connector.execute(entity, action, params), call, shaping.tool);
  };
}

/** The tool of one declared action (list, get, api_search, download). */
export function declaredActionTool(connector: McpConnector, entity: string, entitySpec: EntitySpec, action: string, spec: ActionSpec): ToolEntry {
  const tool = actionToolName(connector.prefix, entity, action);
  const paging = pagingOf(spec.pagination);
  const paged = spec.response.records !== undefined;
  const hidden = paged ? (paging.describe().pagination_param ?? undefined) : undefined;
  return {
    tool: {
      name: tool,
      description: actionText(connector, entity, entitySpec, action, spec.description, paged),
      inputSchema: toolInput(spec.params, hidden, paged),
      annotations: READ_ONLY,
    },
    run: runner(connector, entity, action, { tool, paged, search: false, nextParams: (params, token) => paging.nextParams(params, token) }),
  };
}

/** The `search` tool of an entity with a sync plan (it reads the local copy, not the upstream): the copy's own cursor gives way to the tool's. */
export function searchTool(connector: McpConnector, entity: string, spec: EntitySpec): ToolEntry {
  const tool = actionToolName(connector.prefix, entity, 'search');
  return {
    tool: {
      name: tool,
      description: actionText(connector, entity, spec, 'search', undefined, true),
      inputSchema: toolInput(searchParamsSchema(spec), 'cursor', true),
      annotations: { ...READ_ONLY, openWorldHint: false },
    },
    run: runner(connector, entity, 'search', { tool, paged: true, search: true, nextParams: (params, token) => ({ ...params, cursor: token }) }),
  };
}
