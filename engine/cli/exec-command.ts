import { createWriteStream, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidRequestError, UnknownConnectorTypeError } from '../errors.js';
import { openConnection, DownloadStream, type Connection } from '../runtime/index.js';
import { startSandbox } from '../sandbox/index.js';
import { connectorSource, sourceType } from './connector-source.js';
import { parseJsonOption, printJson } from './output.js';

export interface ExecOptions {
  params?: string;
  credentials?: string;
  config?: string;
  baseUrl?: string;
  /** --allow-origin, repeatable: origins reachable besides the manifest's hosts. */
  allowOrigin?: string[];
  all?: boolean;
  sandbox?: boolean;
  output?: string;
  /** --manifest FILE: a manifest file in place of the type. */
  manifest?: string;
}

/** Streams a downloaded file to --output (or stdout), and says on stderr what was written. */
async function saveFile(file: DownloadStream, output: string | undefined): Promise<void> {
  const target = output && output !== '-' ? createWriteStream(output) : process.stdout;
  await pipeline(Readable.from(file), target, { end: target !== process.stdout });
  process.stderr.write(
    JSON.stringify({
      status: file.status,
      content_type: file.contentType ?? null,
      content_length: file.contentLength ?? null,
      content_range: file.contentRange ?? null,
      ...(output ? { output } : {}),
    }) + '\n',
  );
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
export async function execCommand(words: string[], options: ExecOptions): Promise<void> {
  const { source, values } = connectorSource(words, ['<entity>', '<action>'], options.manifest);
  const [entity, action] = values as [string, string];
  if (options.sandbox && typeof source !== 'string') {
    throw new InvalidRequestError('--sandbox serves the shipped connectors only; run a --manifest file with --base-url and --credentials', {
      details: [{ path: '--sandbox', message: 'cannot go with --manifest' }],
    });
  }
  const type = sourceType(source);
  const params = parseJsonOption('params', options.params);
  const config = parseJsonOption('config', options.config);
  if (!options.sandbox) {
    const credentials = readCredentials(options.credentials);
    const connection = openConnection(source, {
      credentials,
      ...(config ? { config } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.allowOrigin?.length ? { allowOrigins: options.allowOrigin } : {}),
      onCredentialsChange: persistCredentials(options.credentials as string),
    });
    return print(connection, entity, action, params, options.all, options.output);
  }
  const sandbox = await startSandbox({ rateLimits: true });
  try {
    const upstream = sandbox.upstreams[type.toLowerCase()];
    if (!upstream) throw new UnknownConnectorTypeError(`the sandbox has no fake for "${type}"; it serves ${Object.keys(sandbox.upstreams).join(', ')}`);
    // The fake's file host and customer host are origins of the sandbox too.
    const allowOrigins = [...upstream.allow_origins, ...(options.allowOrigin ?? [])];
    const connection = openConnection(type, {
      credentials: upstream.credentials,
      config: { ...upstream.config, ...config },
      baseUrl: upstream.base_url,
      allowOrigins,
    });
    await print(connection, entity, action, params, options.all, options.output);
  } finally {
    await sandbox.close();
  }
}

async function print(
  connection: Connection,
  entity: string,
  action: string,
  params: Record<string, unknown> | undefined,
  all?: boolean,
  output?: string,
): Promise<void> {
  if (!all) {
    const result = await connection.execute(entity, action, params);
    if (result instanceof DownloadStream) return saveFile(result, output);
    printJson(result);
    return;
  }
  for await (const record of connection.records(entity, action, params)) process.stdout.write(JSON.stringify(record) + '\n');
}
