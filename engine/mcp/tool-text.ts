import type { EntitySpec } from '../manifest/index.js';
import { SEARCH_ACTION_DESCRIPTION } from '../sync/index.js';
import type { McpConnector } from './mcp-connector.js';
import { MCP_BUDGET } from './result-budget.js';

/** What an action does when its manifest says nothing. */
const ACTION_WORDS: Record<string, string> = {
  list: 'Lists records.',
  get: 'Reads one record.',
  api_search: "Searches with the upstream's own search.",
  download: 'Downloads a file.',
  search: SEARCH_ACTION_DESCRIPTION,
};

/** What a paged tool answers and how to read on (the cursor is the tool's, not the upstream's). */
export const PAGING_TEXT = `Answers at most ${MCP_BUDGET.records} records (${MCP_BUDGET.bytes / 1024} KB of JSON) per call; when next_cursor is not null, call again with {"cursor": next_cursor} alone to read on.`;

/** The `cursor` argument of every paged tool. */
export const CURSOR_SCHEMA = {
  type: 'string',
  description: "next_cursor of this tool's previous answer, to read on; with it, the other arguments are taken from the cursor.",
} as const;

/** The entity's agent hints as sentences: when to use it, and the questions it answers. */
export function hintText(spec: EntitySpec): string[] {
  const lines: string[] = [];
  if (spec.agent?.when_to_use) lines.push(`When to use: ${spec.agent.when_to_use}`);
  if (spec.agent?.example_questions) lines.push(`Example questions: ${spec.agent.example_questions.map((question) => JSON.stringify(question)).join('; ')}.`);
  return lines;
}

/**
 * An action tool's description, from the manifest: the connector and entity, what the action
 * does, the agent hints, and for paged tools how to read on.
 */
export function actionText(connector: McpConnector, entity: string, spec: EntitySpec, action: string, description: string | undefined, paged: boolean): string {
  const lines = [
    `${connector.title}, ${entity}${spec.description ? ` (${spec.description.replace(/\.$/, '')})` : ''}: ${description ?? ACTION_WORDS[action] ?? action}`,
  ];
  lines.push(...hintText(spec));
  if (action === 'search') lines.push(`Searchable fields: ${Object.keys(spec.sync?.searchable ?? {}).join(', ')}.`);
  if (paged) lines.push(PAGING_TEXT);
  if (action === 'download') lines.push(`Answers the file as an embedded resource, cut at ${MCP_BUDGET.fileBytes / 1024} KB.`);
  return lines.join('\n');
}
