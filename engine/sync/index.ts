export { runSync, syncedEntities, type SyncOptions } from './run-sync.js';
