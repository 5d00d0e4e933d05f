/**
 * The worker-thread side of the SQLite copy's writes (see sqlite-write-thread.ts): its own
 * connection to the store's file, running one task at a time (a batch of records, or a sweep of
 * a full pass's stale records) as short transactions, each sized to cost about
 * WRITE_CHUNK_BUDGET.budgetMs, and waiting before each while the store's thread wants the lock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { prepareRecordWrites, type RecordTarget, type SerializedRecord } from './sqlite-record-writes.js';
import { registerSearchFunctions } from './strict-number.js';
import { lowerThreadPriority } from './thread-priority.js';
import { runTimedChunks, type ChunkBudget } from './timed-chunks.js';
import { waitWhileRaised } from './write-intent.js';

/**
 * One write transaction of this thread costs about this much. Why 10 ms: it is the longest the
 * store's thread waits for the lock when it wants it mid-chunk (its event loop waits with it), and
 * FTS5 pays per transaction (a segment per commit, merges): 10 ms chunks write a record in about
 * 0.55 ms against 0.43 ms for 500-record transactions and 0.8 ms for 2 ms ones (measured on the
 * sandbox's CRM contacts, about 370 bytes of JSON each).
 */
export const WRITE_CHUNK_BUDGET: ChunkBudget = { budgetMs: 10, maxItems: 500 };

/** The write thread's nice value: under CPU contention, the event loop's thread (nice 0) gets most of a core. */
export const WRITE_THREAD_NICE = 10;

/** A task from the store's thread. */
export type WriteTask =
  { id: number; kind: 'upsert'; target: RecordTarget; now: string; records: SerializedRecord[] } | { id: number; kind: 'sweep'; target: RecordTarget };

/** The answer: how many rows the task wrote or removed, or the error's message. */
export type WriteTaskAnswer = { id: number; count: number } | { id: number; error: string };

const { path, busyTimeoutMs, intent } = workerData as { path: string; busyTimeoutMs: number; intent: SharedArrayBuffer };
lowerThreadPriority(WRITE_THREAD_NICE);
const db = new Database(path, { fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
// The sort-key triggers read typed values with these (engine/search/sort-keys-sqlite.ts).
registerSearchFunctions(db);
const writes = prepareRecordWrites(db);
const yieldToStore = () => waitWhileRaised(intent);

function run(task: WriteTask): number {
  if (task.kind === 'upsert') {
    return runTimedChunks(task.records, WRITE_CHUNK_BUDGET, (chunk) => writes.upsert(task.target, task.now, chunk), yieldToStore);
  }
  return runTimedChunks(writes.staleSeqs(task.target), WRITE_CHUNK_BUDGET, (chunk) => writes.remove(task.target, chunk), yieldToStore);
}

parentPort?.on('message', (task: WriteTask) => {
  let answer: WriteTaskAnswer;
  try {
    answer = { id: task.id, count: run(task) };
  } catch (error) {
    answer = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
