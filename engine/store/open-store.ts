import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import { StoreSetupError } from './store-errors.js';
import type { Store } from './types.js';

/**
 * Opens the store a database URL names and brings its schema up to date, so a server or CLI
 * command only ever sees a ready store:
 * - `sqlite:<path>` (relative to the working directory; the file and its folder are created on
 *   first open), or `sqlite::memory:` for a throwaway database;
 * - `postgres://...` or `postgresql://...` (any URL `pg` accepts).
 */
export async function openStore(url: string): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new StoreSetupError('The database URL "sqlite:" names no file; write sqlite:<path> or sqlite::memory:.');
    return openSqliteStore(path);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url);
  const scheme = url.split(':')[0] ?? '';
  throw new StoreSetupError(
    `Unsupported database URL scheme "${scheme}:"; use sqlite:<path> or postgres://user:password@host:port/database.`,
  );
}
