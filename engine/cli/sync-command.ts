import { InvalidRequestError } from '../errors.js';
import { syncOnce } from '../hosted/index.js';
import type { Sandbox } from '../sandbox/index.js';
import { printJson } from './output.js';
import { progressBar } from './progress-bar.js';
import { DEFAULT_DATABASE_URL, startLazySandbox, upstreamRoutes, webhookOrigins } from './serve-command.js';

/** `--batch-size`: a whole number of records from 1 to 10,000, or a usage error naming the option. */
function parseBatchSize(text: string): number {
  const size = Number(text);
  if (!/^[0-9]+$/.test(text) || size < 1 || size > 10_000) {
    throw new InvalidRequestError(`--batch-size must be a whole number from 1 to 10000, got "${text}"`, {
      details: [{ path: '--batch-size', message: 'must be a whole number from 1 to 10000' }],
    });
  }
  return size;
}

export interface SyncCommandOptions {
  databaseUrl?: string;
  full?: boolean;
  sandbox?: boolean;
  batchSize?: string;
}

/**
 * `connector-engine sync <connector-id>`: one pass of a stored connector now, with a progress
 * bar on stderr and each entity's state as JSON on stdout. Exit code 1 when an entity failed,
 * 3 when another process is running this connector's pass (it is not run twice).
 */
export async function syncCommand(connectorId: string, options: SyncCommandOptions): Promise<void> {
  const databaseUrl = options.databaseUrl || process.env.ENGINE_DATABASE_URL || DEFAULT_DATABASE_URL;
  let sandbox: Sandbox | undefined;
  try {
    // The sandbox's data and credentials come from its seed, so a fresh one serves the same upstream.
    if (options.sandbox) sandbox = await startLazySandbox({});
    const { upstreams, allowOrigins } = upstreamRoutes(sandbox);
    const bar = progressBar(process.stderr);
    const result = await syncOnce({
      databaseUrl,
      connectorId,
      upstreams,
      allowOrigins,
      webhookOrigins: webhookOrigins(),
      ...(process.env.ENGINE_SECRET ? { secret: process.env.ENGINE_SECRET } : {}),
      ...(options.full ? { full: true } : {}),
      ...(options.batchSize !== undefined ? { batchSize: parseBatchSize(options.batchSize) } : {}),
      onProgress: (progress) => bar.update(progress),
    });
    bar.end();
    if (!result.ran) {
      process.stderr.write(
        `connector ${connectorId}: a pass is running in another process (lease until ${result.job?.lease_until ?? 'unknown'}); not starting a second one\n`,
      );
      process.exitCode = 3;
      return;
    }
    printJson({ connector_id: connectorId, entities: result.states });
    if (result.states.some((state) => state.status === 'failed')) process.exitCode = 1;
  } finally {
    await sandbox?.close();
  }
}
