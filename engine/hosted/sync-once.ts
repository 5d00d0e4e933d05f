import { ConnectorNotFoundError } from '../errors.js';
import { findManifest } from '../manifest/index.js';
import { createCipher, loadOrCreateKey, openStore, type SyncJob, type SyncState } from '../store/index.js';
import { SyncScheduler, type SyncProgress } from '../sync/index.js';
import { WebhookWorker } from '../webhooks/index.js';
import { ConnectorPool } from './connector-pool.js';
import { dataDirectory } from './service.js';

/** What the operator's `connector-engine sync <id>` needs. */
export interface SyncOnceOptions {
  databaseUrl: string;
  connectorId: string;
  /** ENGINE_SECRET; without it, the key file the service created in the data directory. */
  secret?: string;
  upstreams?: Record<string, string>;
  /** Extra origins per connector type (the sandbox's second hosts, ENGINE_ALLOW_ORIGINS_<TYPE>). */
  allowOrigins?: Record<string, string[]>;
  full?: boolean;
  /** Records per write transaction (default 500). */
  batchSize?: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Origins webhook deliveries may reach although http or not public (ENGINE_ALLOW_ORIGINS_WEBHOOKS). */
  webhookOrigins?: string[];
}

/** How a pass asked for by the operator ended: run here, or already running in another process. */
export type SyncOnceResult = { ran: true; states: SyncState[] } | { ran: false; job: SyncJob | undefined };

/**
 * Runs one pass of a stored connector in this process, through the same job table as the
 * service: if a server process holds the job right now, it does not run twice and says so.
 */
export async function syncOnce(options: SyncOnceOptions): Promise<SyncOnceResult> {
  const store = await openStore(options.databaseUrl);
  try {
    const row = await store.findConnector(options.connectorId);
    if (!row) throw new ConnectorNotFoundError(`no connector ${options.connectorId}`, { details: [{ path: '<connector-id>', message: 'not found' }] });
    const key = await loadOrCreateKey({ ...(options.secret ? { secret: options.secret } : {}), dataDir: dataDirectory(options.databaseUrl) });
    const cipher = createCipher(key);
    const pool = new ConnectorPool(store, cipher, {
      ...(options.upstreams ? { upstreams: options.upstreams } : {}),
      ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
    });
    const scheduler = new SyncScheduler({
      store,
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      open: async () => ({ connection: await pool.connection(row), manifest: findManifest(row.connector_type).manifest }),
    });
    const result = await scheduler.runNow(row.id, {
      ...(options.full ? { full: true } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    // One round of the outbox (this pass's event among others due): retries are left to the serve processes.
    await new WebhookWorker({ store, cipher, ...(options.webhookOrigins ? { allowOrigins: options.webhookOrigins } : {}) }).drain();
    return result;
  } finally {
    await store.close();
  }
}
