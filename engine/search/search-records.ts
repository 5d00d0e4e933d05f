import { InternalError } from '../errors.js';
import { connectorNotFound, type RecordReader, type Store, type Tenant } from '../store/index.js';
import { runSearch } from './run-search.js';
import { startRangeKeys } from './range-keys.js';
import { sortKeysFor } from './sort-keys.js';
import { SqliteSearchThread, searchWorkerFile } from './sqlite-search-thread.js';
import { registerSearchFunctions } from '../store/index.js';
import type { SearchRequest, SearchResult, SearchScope } from './types.js';

type Searcher = (scope: SearchScope, request: SearchRequest) => Promise<SearchResult>;

/** One searcher per store, made on its first search and ended with the store. */
const searchers = new WeakMap<Store, Searcher>();

/**
 * A SQLite file's searches run on a thread of their own (see SqliteSearchThread); an in-memory
 * database lives in the store's connection only, so its searches run there.
 */
function sqliteSearcher(store: Store, reader: Extract<RecordReader, { dialect: 'sqlite' }>): Searcher {
  const file = reader.file === undefined ? undefined : searchWorkerFile();
  if (reader.file !== undefined && file !== undefined) {
    const thread = new SqliteSearchThread(reader.file, file, reader.busyTimeoutMs);
    store.onClose(() => thread.close());
    // The thread's connection only reads: keys are started here, on the store's own connection.
    registerSearchFunctions(reader.db);
    return async (scope, request) => {
      await sortKeysFor(reader.db, 'sqlite', scope, request, true);
      await startRangeKeys(reader.db, 'sqlite', scope, request);
      return thread.search(scope, request);
    };
  }
  registerSearchFunctions(reader.db);
  return (scope, request) => runSearch(reader.db, 'sqlite', scope, request);
}

function searcherOf(store: Store): Searcher {
  const known = searchers.get(store);
  if (known) return known;
  const reader = store.recordReader();
  if (reader.dialect === 'sqlite' && !reader.db.open) throw new InternalError('the store is closed');
  const made: Searcher = reader.dialect === 'sqlite' ? sqliteSearcher(store, reader) : (scope, request) => runSearch(reader.pool, 'postgres', scope, request);
  searchers.set(store, made);
  return made;
}

/**
 * Runs a validated search over one entity of a connector's synchronized copy in a store, so
 * callers need not know which database is behind it. With a tenant (hosted mode), the copy is
 * read only when the connector is the tenant's: CONNECTOR_NOT_FOUND otherwise.
 */
export async function searchRecords(store: Store, scope: SearchScope, request: SearchRequest, tenant?: Tenant): Promise<SearchResult> {
  if (tenant && !(await store.tenantOwnsConnector(tenant, scope.connectorId))) throw connectorNotFound();
  return searcherOf(store)(scope, request);
}
