/**
 * The synchronized copy: sync plans read into the store (full and incremental passes), the job
 * scheduler that runs them on an interval across processes, and the `search` action over the copy.
 * This file is the folder's only door.
 */
export { runSync, syncedEntities, DEFAULT_FULL_EVERY_MS, LEASE_LOST, STOPPED_MESSAGE, type SyncOptions, type SyncProgress } from './run-sync.js';
export {
  SyncScheduler,
  DEFAULT_SYNC_INTERVAL_MS,
  type SyncSchedulerOptions,
  type OpenConnector,
  type RunNowResult,
  type SyncLogger,
} from './sync-scheduler.js';
export { searchCopy, type SearchTarget } from './search-copy.js';
export type { SyncObserver, SyncPassOutcome } from './sync-observer.js';
export { readPlan, renderSyncParams } from './read-plan.js';
export { copyRecord } from './copy-record.js';
export { searchParamsSchema, SEARCH_ACTION_DESCRIPTION } from './search-action.js';
export { LocalCopy, type StoreOption } from './local-copy.js';
