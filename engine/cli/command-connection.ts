import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { connect } from '../connect.js';
import { InvalidRequestError, UnknownConnectorTypeError } from '../errors.js';
import type { Connection } from '../runtime/index.js';
import { startSandbox } from '../sandbox/index.js';
import { sourceType, type ConnectorSource } from './connector-source.js';
import { parseJsonOption } from './output.js';

/** The options by which a command (exec, mcp) reaches an upstream. */
export interface ConnectionFlags {
  credentials?: string;
  config?: string;
  baseUrl?: string;
  /** --allow-origin, repeatable: origins reachable besides the manifest's hosts. */
  allowOrigin?: string[];
  sandbox?: boolean;
}

/** A command's open connection, and how to let go of it (and of the sandbox it started). */
export interface CommandConnection {
  connection: Connection;
  close(): Promise<void>;
}

function readCredentials(file: string | undefined): Record<string, unknown> {
  if (!file) {
    throw new InvalidRequestError('--credentials FILE is required (a JSON file with the connector credentials)', {
      details: [{ path: '--credentials', message: 'is required' }],
    });
  }
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new InvalidRequestError(`--credentials: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      details: [{ path: '--credentials', message: 'must be a readable JSON file' }],
    });
  }
  return parseJsonOption('credentials', text) as Record<string, unknown>;
}

/** Writes rotated credentials back to their file atomically (mode 0600), so a single-use refresh token is never lost. */
function persistCredentials(file: string): (credentials: Record<string, unknown>) => void {
  return (credentials) => {
    if (file === '-') return;
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
    renameSync(temp, file);
  };
}

/** The connection with a credentials file: the upstream the manifest names, or --base-url. */
function upstreamConnection(
  source: ConnectorSource,
  flags: ConnectionFlags,
  config: Record<string, unknown> | undefined,
  store: string | undefined,
): CommandConnection {
  const connection = connect(source, {
    credentials: readCredentials(flags.credentials),
    ...(config ? { config } : {}),
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.allowOrigin?.length ? { allowOrigins: flags.allowOrigin } : {}),
    onCredentialsChange: persistCredentials(flags.credentials as string),
    ...(store ? { store } : {}),
  });
  return { connection, close: () => connection.close() };
}

/**
 * Opens the connection a command runs on. With --sandbox it starts the fake upstreams in this
 * process and uses their credentials, so a newcomer can try any action with nothing set up;
 * otherwise it reads --credentials (rotated tokens are written back). `store` keeps a
 * synchronized copy there, for sync and search.
 */
export async function commandConnection(source: ConnectorSource, flags: ConnectionFlags, store?: string): Promise<CommandConnection> {
  if (flags.sandbox && typeof source !== 'string') {
    throw new InvalidRequestError('--sandbox serves the shipped connectors only; run a --manifest file with --base-url and --credentials', {
      details: [{ path: '--sandbox', message: 'cannot go with --manifest' }],
    });
  }
  const config = parseJsonOption('config', flags.config);
  if (!flags.sandbox) return upstreamConnection(source, flags, config, store);
  const type = sourceType(source);
  const sandbox = await startSandbox({ rateLimits: true });
  try {
    const upstream = sandbox.upstreams[type.toLowerCase()];
    if (!upstream) throw new UnknownConnectorTypeError(`the sandbox has no fake for "${type}"; it serves ${Object.keys(sandbox.upstreams).join(', ')}`);
    // The fake's file host and customer host are origins of the sandbox too.
    const allowOrigins = [...upstream.allow_origins, ...(flags.allowOrigin ?? [])];
    const connection = connect(type, {
      credentials: upstream.credentials,
      config: { ...upstream.config, ...config },
      baseUrl: upstream.base_url,
      allowOrigins,
      ...(store ? { store } : {}),
    });
    return { connection, close: () => connection.close().finally(() => sandbox.close()) };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
