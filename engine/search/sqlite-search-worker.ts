/**
 * The worker-thread side of SQLite searches (see sqlite-search-thread.ts): one read-only
 * connection to a SQLite store's file, answering search requests one at a time, so a costly query
 * (fuzzy matching over a large copy) runs beside the service's event loop instead of on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { EngineError } from '../errors.js';
import { runSearch } from './run-search.js';
import { registerSearchFunctions } from '../store/index.js';
import type { SearchRequest, SearchScope } from './types.js';

/** A request from the store's thread. */
export interface SearchTask {
  id: number;
  scope: SearchScope;
  request: SearchRequest;
}

/** The answer: the result, or the error as plain data (errors do not cross threads as classes). */
export type SearchTaskAnswer = { id: number; result: unknown } | { id: number; error: { code?: string; message: string; details?: unknown } };

const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const db = new Database(path, { fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
// This connection only reads: a bug can never write through it.
db.pragma('query_only = ON');
registerSearchFunctions(db);

parentPort?.on('message', (task: SearchTask) => {
  runSearch(db, 'sqlite', task.scope, task.request, { startSortKeys: false }).then(
    (result) => parentPort?.postMessage({ id: task.id, result } satisfies SearchTaskAnswer),
    (error: unknown) => {
      const failure =
        error instanceof EngineError
          ? { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }
          : { message: error instanceof Error ? error.message : String(error) };
      parentPort?.postMessage({ id: task.id, error: failure } satisfies SearchTaskAnswer);
    },
  );
});
