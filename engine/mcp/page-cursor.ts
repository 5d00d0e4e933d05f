import { InvalidParamsError } from '../errors.js';
import { isObject } from './schema-parts.js';

/**
 * Where the next call of a tool starts: the params of the upstream page (or search page) to read,
 * and how many of its records the previous calls already returned.
 */
export interface PageCursor {
  params: Record<string, unknown>;
  skip: number;
}

const VERSION = 1;

/** The cursor as the agent passes it back: base64url JSON naming the tool, so it cannot continue another tool's pages. */
export function encodeCursor(tool: string, cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ v: VERSION, tool, params: cursor.params, skip: cursor.skip })).toString('base64url');
}

function invalid(message: string): InvalidParamsError {
  return new InvalidParamsError(`cursor ${message}`, { details: [{ path: '/cursor', message }] });
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (isObject(value)) return value;
  } catch {
    // Falls through to the same refusal as any other text that is not a cursor.
  }
  throw invalid("is not a cursor of this server: pass the previous answer's next_cursor unchanged");
}

/**
 * Reads a cursor an agent sent back. Its params are checked again by the action like any params,
 * so a cursor carries no trust; what is checked here is that it is one of this tool's.
 */
export function decodeCursor(tool: string, text: unknown): PageCursor {
  if (typeof text !== 'string' || text === '') throw invalid('must be a non-empty string');
  const value = parsed(text);
  const params = value.params;
  if (value.v !== VERSION || !isObject(params)) throw invalid("is not a cursor of this server: pass the previous answer's next_cursor unchanged");
  if (value.tool !== tool) throw invalid(`continues ${JSON.stringify(value.tool)}, not ${tool}: pass it to the tool that returned it`);
  const skip = value.skip;
  if (typeof skip !== 'number' || !Number.isInteger(skip) || skip < 0) throw invalid('is damaged: its position is not a whole number');
  return { params, skip };
}
