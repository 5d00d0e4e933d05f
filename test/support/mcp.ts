/**
 * Driving the MCP server with the official SDK's own client: reading tool answers and following
 * a paged tool's cursor to the end.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An SDK client connected over `transport`, with every transport error it saw (a stray stdout line is one). */
export async function mcpClient(transport: Transport): Promise<{ client: Client; errors: Error[] }> {
  const client = new Client({ name: 'connector-engine-tests', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, errors };
}

/** What a tool answered, as the JSON of its first text block, with its isError flag. */
export async function callJson(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  return { isError: result.isError === true, body: JSON.parse(content[0]?.text ?? 'null') };
}

/**
 * Every answer of a paged tool from `args` on, following next_cursor (in `meta` for lists, at the
 * top for search) until it is null; fails after `max` answers.
 */
export async function allPages(client: Client, name: string, args: Record<string, unknown>, max = 40): Promise<any[]> {
  const pages: any[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next) {
    const { isError, body } = await callJson(client, name, next);
    if (isError) throw new Error(`${name}: ${JSON.stringify(body)}`);
    pages.push(body);
    const cursor: string | null = 'hits' in body ? body.next_cursor : body.meta.next_cursor;
    next = cursor === null ? undefined : { cursor };
    if (pages.length > max) throw new Error(`${name}: more than ${max} answers`);
  }
  return pages;
}
