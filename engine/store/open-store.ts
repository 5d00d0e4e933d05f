import type { Clock } from '../clock/index.js';
import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import { StoreSetupError } from './store-errors.js';
import type { Store } from './types.js';

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /**
   * Where the store reads time for what it stamps and compares (leases, due times, created_at);
   * default real time. The shared PostgreSQL rate-limit slots keep the database's clock.
   */
  clock?: Clock;
}

/**
 * Opens the store a database URL names and brings its schema up to date, so a server or CLI
 * command only ever sees a ready store:
 * - `sqlite:<path>` (relative to the working directory; the file and its folder are created on
 *   first open), or `sqlite::memory:` for a throwaway database;
 * - `postgres://...` or `postgresql://...` (any URL `pg` accepts).
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new StoreSetupError('The database URL "sqlite:" names no file; write sqlite:<path> or sqlite::memory:.');
    return openSqliteStore(path, options.clock);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url, options.clock);
  const scheme = url.split(':')[0] ?? '';
  throw new StoreSetupError(`Unsupported database URL scheme "${scheme}:"; use sqlite:<path> or postgres://user:password@host:port/database.`);
}
