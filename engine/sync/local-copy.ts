import type { Manifest } from '../manifest/index.js';
import type { AttachedCopy, Connection, CopySyncOptions } from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import { openStore, storeUnavailable, type Store, type SyncState } from '../store/index.js';
import { runSync } from './run-sync.js';
import { searchCopy } from './search-copy.js';

/** Where the open-source mode keeps a copy: a Store, or a database URL the connection opens. */
export type StoreOption = Store | string;

/**
 * A synchronized copy kept in-process (open-source mode): `connect(type, {credentials, store})`
 * attaches one, so `sync()` fills it and `execute(entity, 'search', ...)` reads it, with the same
 * store, runner and query compiler as the hosted service.
 */
export class LocalCopy implements AttachedCopy {
  private opened: Promise<Store> | undefined;
  private running: Promise<SyncState[]> | undefined;

  constructor(
    private readonly storeOption: StoreOption,
    private readonly manifest: Manifest,
    private readonly connectorId: string,
    private readonly connection: Connection,
  ) {}

  private store(): Promise<Store> {
    if (this.opened) return this.opened;
    // A copy this connection opens serves its own awaited sync(): its write thread takes a fair share of a busy machine.
    const opening = typeof this.storeOption === 'string' ? openStore(this.storeOption, { writeThreadPriority: 'normal' }) : Promise.resolve(this.storeOption);
    // An open that failed (the database out of reach) is tried again by the next call, not kept.
    opening.catch(() => {
      if (this.opened === opening) this.opened = undefined;
    });
    this.opened = opening;
    return this.opened;
  }

  async search(entity: string, params: unknown): Promise<SearchResult> {
    return typed(async () => searchCopy({ store: await this.store(), manifest: this.manifest, connectorId: this.connectorId }, entity, params));
  }

  /** One pass at a time per connection: a second call while one runs gets the same pass's states. */
  sync(options: CopySyncOptions): Promise<SyncState[]> {
    this.running ??= typed(() => this.pass(options)).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(options: CopySyncOptions): Promise<SyncState[]> {
    return runSync({
      connection: this.connection,
      manifest: this.manifest,
      store: await this.store(),
      connectorId: this.connectorId,
      mode: options.full ? 'full' : 'auto',
      ...(options.entities ? { entities: options.entities } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  }

  async states(): Promise<SyncState[]> {
    return typed(async () => (await this.store()).syncStates(this.connectorId));
  }

  /** Closes the store only when this copy opened it from a URL; a Store passed in stays the caller's. */
  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    if (typeof this.storeOption === 'string' && this.opened) await (await this.opened).close();
  }
}

/**
 * Runs a call on the copy's database with its failures typed: a database that cannot serve it (its
 * session ended, or it cannot be reached) is SERVICE_UNAVAILABLE, retryable, as in the hosted API,
 * instead of the driver's own error.
 */
async function typed<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeUnavailable(error) ?? error;
  }
}
