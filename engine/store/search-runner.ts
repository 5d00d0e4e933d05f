import type { SearchDatabase } from '../search/run-search.js';
import type { SearchDialect, SearchRequest, SearchResult, SearchScope } from '../search/types.js';

/**
 * Runs a search through engine/search's runner, loaded on first use rather than imported.
 *
 * Why not a static import: engine/search takes its table names from this folder's index, so a
 * static import here closes a cycle (store index -> store -> run-search -> search dialects -> store
 * index). When the store is loaded first, the dialects are evaluated before the index has its
 * exports, and vitest's module runner then hands them `undefined` table names without an error
 * ("no such table: undefined"). By the time anyone searches, this folder is fully loaded; the
 * module loader caches the import, so only the first search pays for it.
 */
export async function searchWith(
  db: SearchDatabase,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
): Promise<SearchResult> {
  const { runSearch } = await import('../search/run-search.js');
  return runSearch(db, dialect, scope, request);
}
