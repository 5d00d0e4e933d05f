import { Worker } from 'node:worker_threads';
import { InternalError } from '../errors.js';
import type { RecordTarget, SerializedRecord } from './sqlite-record-writes.js';
import type { WriteTask, WriteTaskAnswer, WriteWorkerData } from './sqlite-write-worker.js';
import { workerFile } from '../worker-file.js';
import type { WriteIntent } from './write-intent.js';

/** A write task without its id (the thread numbers them). */
type Task = { kind: 'upsert'; target: RecordTarget; now: string; records: SerializedRecord[] } | { kind: 'sweep'; target: RecordTarget };

/** How the write thread runs. */
export interface WriteThreadOptions {
  busyTimeoutMs: number;
  /** Raised while the store's thread writes: the write thread steps aside. */
  intent: WriteIntent;
  /** Runs at WRITE_THREAD_NICE (see OpenStoreOptions.writeThreadPriority). */
  lowPriority: boolean;
}

interface Pending {
  resolve: (count: number) => void;
  reject: (error: Error) => void;
}

/** The compiled write worker (see workerFile); undefined without a build. */
export function writeWorkerFile(): string | undefined {
  return workerFile('store', 'sqlite-write-worker.js');
}

/**
 * Writes the SQLite store's synchronized copy on a worker thread with its own connection. Why:
 * a record costs about half a millisecond to write, most of it in the text index triggers
 * (record-table.ts), so a pass of 100,000 records holds a connection for nearly a minute; on
 * the store's own connection that is a minute of the event loop, and the service's requests and
 * downloads wait behind it. The worker writes in transactions of about 10 ms and steps aside for
 * the store's own writes (WriteIntent). It starts on the first write, tasks run in order, and a
 * worker that dies fails what it held; the next write starts a new one.
 */
export class SqliteWriteThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly inFlight = new Set<Promise<number>>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly workerFile: string,
    private readonly options: WriteThreadOptions,
  ) {}

  /** Upserts a batch; resolves once every record is committed. */
  async upsert(target: RecordTarget, now: string, records: SerializedRecord[]): Promise<void> {
    await this.send({ kind: 'upsert', target, now, records });
  }

  /** Removes the entity's records stamped before the target's generation; resolves to how many. */
  sweep(target: RecordTarget): Promise<number> {
    return this.send({ kind: 'sweep', target });
  }

  /** Waits for the tasks in flight (each is a few short transactions), then stops the worker. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.inFlight);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private send(task: Task): Promise<number> {
    if (this.closed) return Promise.reject(new InternalError('the store is closed'));
    const id = this.nextId++;
    const done = new Promise<number>((resolve, reject) => {
      const worker = this.started();
      // Held while it has work: a caller awaiting a write (a script's sync pass) keeps the process alive.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...task, id } satisfies WriteTask);
    });
    this.inFlight.add(done);
    const forget = () => this.inFlight.delete(done);
    done.then(forget, forget);
    return done;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const { busyTimeoutMs, intent, lowPriority } = this.options;
    const worker = new Worker(this.workerFile, {
      workerData: { path: this.path, busyTimeoutMs, intent: intent.buffer, lowPriority } satisfies WriteWorkerData,
    });
    worker.on('message', (answer: WriteTaskAnswer) => this.settle(answer));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the write worker exited with code ${code}`)));
    // An idle worker must not keep the process alive (send() holds it while it has work); close() ends it.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(answer: WriteTaskAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('count' in answer) waiting.resolve(answer.count);
    else waiting.reject(new InternalError(`writing the synchronized copy failed: ${answer.error}`));
  }

  /** A dead worker fails what it held; the next write starts a new one. */
  private lost(worker: Worker, cause: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(new InternalError(`the write worker stopped: ${cause.message}`, { cause }));
    this.pending.clear();
  }
}
