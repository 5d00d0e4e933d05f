import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InvalidRequestError } from '../errors.js';
import { createMcpServer, type McpConnector } from '../mcp/index.js';
import { commandConnection, type CommandConnection, type ConnectionFlags } from './command-connection.js';
import { connectorSource } from './connector-source.js';
import { findManifest } from '../manifest/index.js';

export interface McpOptions extends ConnectionFlags {
  /** --store URL: the synchronized copy the search tools read and the sync tool fills. */
  store?: string;
  /** --manifest FILE: a manifest file in place of the type. */
  manifest?: string;
}

/**
 * MCP over stdio owns stdout: a stray line there breaks the client's reading, so whatever any
 * code would print with console.log, info or debug goes to stderr instead.
 */
function keepStdoutForMcp(): void {
  for (const method of ['log', 'info', 'debug'] as const) console[method] = (...args: unknown[]) => console.error(...args);
}

/** The one connector the stdio server serves: its type names the tools; with a store it can search and sync. */
function localConnector(opened: CommandConnection, manifest: McpConnector['manifest'], store: string | undefined): McpConnector {
  const { connection } = opened;
  return {
    prefix: manifest.type,
    title: manifest.name,
    manifest,
    searchable: store !== undefined,
    execute: (entity, action, params) => connection.execute(entity, action, params),
    ...(store !== undefined ? { sync: (options: { entities?: string[]; full?: boolean }) => connection.sync(options) } : {}),
  };
}

/** Failures that are not engine errors, for the operator: on stderr, never on stdout. */
function logToStderr(error: unknown): void {
  process.stderr.write(`connector-engine mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

/**
 * `connector-engine mcp <type>`: serves the connector's entities and actions as MCP tools over
 * stdio, for an agent's MCP client to start. It runs until the client closes stdin (or a signal),
 * then closes the connection, the store and the sandbox it opened.
 */
export async function mcpCommand(words: string[], options: McpOptions): Promise<void> {
  keepStdoutForMcp();
  if (options.credentials === '-') {
    throw new InvalidRequestError('--credentials - would read stdin, which carries MCP here; name a file', {
      details: [{ path: '--credentials', message: 'must be a file, not stdin' }],
    });
  }
  const { source } = connectorSource(words, [], options.manifest);
  const manifest = typeof source === 'string' ? findManifest(source).manifest : source.manifest;
  const opened = await commandConnection(source, options, options.store);
  const server = createMcpServer({ connectors: [localConnector(opened, manifest, options.store)], log: logToStderr });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= server
      .close()
      .then(() => opened.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logToStderr(error);
          process.exit(1);
        },
      ));
  process.stdin.once('end', () => void stop());
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  await server.connect(new StdioServerTransport());
}
