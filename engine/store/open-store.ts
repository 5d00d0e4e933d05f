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
  /**
   * SQLite files: the CPU priority of the thread that writes the synchronized copy. `low` (the
   * default) lets the event loop's thread win when every core is busy, for a service answering
   * requests during a pass; `normal` gives a pass a fair share of a busy machine, for a `sync()`
   * someone awaits (the library's own copy). Measured on a loaded 2-core machine: a first pass ran
   * at 0.77-0.80 of a raw insert loop at `low`, 0.92-0.94 at `normal` (scripts/bench-sync.ts).
   */
  writeThreadPriority?: 'low' | 'normal';
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
    return openSqliteStore(path, options.clock, options.writeThreadPriority);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url, options.clock);
  const scheme = url.split(':')[0] ?? '';
  throw new StoreSetupError(`Unsupported database URL scheme "${scheme}:"; use sqlite:<path> or postgres://user:password@host:port/database.`);
}
