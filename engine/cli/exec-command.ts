import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { InvalidRequestError, UnknownConnectorTypeError } from '../errors.js';
import { connect, type Connection } from '../runtime/index.js';
import { startSandbox } from '../sandbox/index.js';
import { parseJsonOption, printJson } from './output.js';

export interface ExecOptions {
  params?: string;
  credentials?: string;
  config?: string;
  baseUrl?: string;
  all?: boolean;
  sandbox?: boolean;
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

/**
 * `connector-engine exec`: runs one action and prints its result (or every record with --all).
 * With --sandbox it starts the fake upstreams in this process and uses their credentials, so a
 * newcomer can try any action with nothing set up.
 */
export async function execCommand(type: string, entity: string, action: string, options: ExecOptions): Promise<void> {
  const params = parseJsonOption('params', options.params);
  const config = parseJsonOption('config', options.config);
  if (!options.sandbox) {
    const credentials = readCredentials(options.credentials);
    const connection = connect(type, {
      credentials,
      ...(config ? { config } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      onCredentialsChange: persistCredentials(options.credentials as string),
    });
    return print(connection, entity, action, params, options.all);
  }
  const sandbox = await startSandbox({ rateLimits: true });
  try {
    const upstream = sandbox.upstreams[type.toLowerCase()];
    if (!upstream) throw new UnknownConnectorTypeError(`the sandbox has no fake for "${type}"; it serves ${Object.keys(sandbox.upstreams).join(', ')}`);
    const connection = connect(type, { credentials: upstream.credentials, config: { ...upstream.config, ...config }, baseUrl: upstream.base_url });
    await print(connection, entity, action, params, options.all);
  } finally {
    await sandbox.close();
  }
}

async function print(connection: Connection, entity: string, action: string, params: Record<string, unknown> | undefined, all?: boolean): Promise<void> {
  if (!all) {
    printJson(await connection.execute(entity, action, params));
    return;
  }
  for await (const record of connection.records(entity, action, params)) process.stdout.write(JSON.stringify(record) + '\n');
}
