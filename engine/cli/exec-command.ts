import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DownloadStream, type Connection } from '../runtime/index.js';
import { commandConnection, type ConnectionFlags } from './command-connection.js';
import { connectorSource } from './connector-source.js';
import { parseJsonOption, printJson } from './output.js';

export interface ExecOptions extends ConnectionFlags {
  params?: string;
  all?: boolean;
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

/**
 * `connector-engine exec`: runs one action and prints its result (or every record with --all).
 * With --sandbox it starts the fake upstreams in this process and uses their credentials, so a
 * newcomer can try any action with nothing set up.
 */
export async function execCommand(words: string[], options: ExecOptions): Promise<void> {
  const { source, values } = connectorSource(words, ['<entity>', '<action>'], options.manifest);
  const [entity, action] = values as [string, string];
  const params = parseJsonOption('params', options.params);
  const opened = await commandConnection(source, options);
  try {
    await print(opened.connection, entity, action, params, options.all, options.output);
  } finally {
    await opened.close();
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
