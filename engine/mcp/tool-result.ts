import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EngineError, InternalError } from '../errors.js';
import { storeUnavailable } from '../store/index.js';

/** A tool answer of JSON, as one text block (what every MCP client shows a model). */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * A failed call as an MCP tool error (`isError`), carrying the engine's error body
 * (`{"error": {"code", "message", "details", ...}}`, already redacted), so the agent reads the
 * typed code and can correct itself. A database that cannot serve the call is SERVICE_UNAVAILABLE
 * (retryable: the agent may try again). Anything else is INTERNAL with a generic message; the cause
 * goes to `log` (stderr or the service log), never to the agent.
 */
export function errorResult(error: unknown, log: (error: unknown) => void): CallToolResult {
  if (!(error instanceof EngineError) || error.code === 'INTERNAL') log(error);
  const engineError = error instanceof EngineError ? error : (storeUnavailable(error) ?? new InternalError('internal error; see the server log'));
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(engineError.toJSON()) }] };
}
