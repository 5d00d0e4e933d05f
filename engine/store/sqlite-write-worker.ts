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
import { ChunkSizer, runTimedChunks, type ChunkBudget } from './timed-chunks.js';
import { intentRaised, waitWhileRaised } from './write-intent.js';

/**
 * One write transaction of this thread costs about this much, unless the store's thread wants the
 * lock first: the upsert then commits after the record in progress (WriteIntent), so a write on
 * the event loop's thread waits for one record and a commit, not for the whole budget. Why this
 * long: FTS5 and the WAL pay per commit (pages rewritten, the index's segment structure), and the
 * text index makes that cost grow with the records' text: on the sandbox's CRM contacts
 * (about 2 KB of JSON each, every property), 4-record transactions cost 3.6-5.9 ms a record,
 * 20-record ones 2.5 ms, 100-record ones 1.5 ms and 500-record ones 1.5-2.2 ms (scripts:
 * /tmp replay of 3,000 contacts, on a loaded 2-core machine). Other processes on the same file
 * (no shared flag) wait at most this long, within the busy timeout.
 */
export const WRITE_CHUNK_BUDGET: ChunkBudget = { budgetMs: 100, maxItems: 500 };

/** The write thread's nice value: under CPU contention, the event loop's thread (nice 0) gets most of a core. */
export const WRITE_THREAD_NICE = 10;

/** A task from the store's thread. */
export type WriteTask =
  { id: number; kind: 'upsert'; target: RecordTarget; now: string; records: SerializedRecord[] } | { id: number; kind: 'sweep'; target: RecordTarget };

/** The answer: how many rows the task wrote or removed, or the error's message. */
export type WriteTaskAnswer = { id: number; count: number } | { id: number; error: string };

/** What the store's thread starts this thread with. */
export interface WriteWorkerData {
  path: string;
  busyTimeoutMs: number;
  intent: SharedArrayBuffer;
  lowPriority: boolean;
}

const { path, busyTimeoutMs, intent, lowPriority } = workerData as WriteWorkerData;
if (lowPriority) lowerThreadPriority(WRITE_THREAD_NICE);
const db = new Database(path, { fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
// The sort-key triggers read typed values with these (engine/search/sort-keys-sqlite.ts).
registerSearchFunctions(db);
// In WAL mode NORMAL syncs the log at checkpoints instead of at every commit, and a killed process
// still loses no committed transaction (sqlite.org/pragma.html#pragma_synchronous); only a power
// loss can undo the latest ones. That cannot outrun the pass's stored state: the store's own
// connection keeps FULL, so its commit of the state syncs the shared log with every record before it.
db.pragma('synchronous = NORMAL');
const writes = prepareRecordWrites(db);
const yieldToStore = () => waitWhileRaised(intent);
const storeWantsLock = intentRaised(intent);
// One pace per kind of task, kept from task to task: a task is one batch, and its first chunks would be tiny otherwise.
const upsertSizer = new ChunkSizer(WRITE_CHUNK_BUDGET);
const sweepSizer = new ChunkSizer(WRITE_CHUNK_BUDGET);

function run(task: WriteTask): number {
  if (task.kind === 'upsert') {
    return runTimedChunks(task.records, upsertSizer, (chunk) => writes.upsert(task.target, task.now, chunk, storeWantsLock), yieldToStore);
  }
  return runTimedChunks(writes.staleSeqs(task.target), sweepSizer, (chunk) => writes.remove(task.target, chunk), yieldToStore);
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
