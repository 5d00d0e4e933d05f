import { Worker } from 'node:worker_threads';
import { errorFor, InternalError, isErrorCode, type ErrorDetail } from '../errors.js';
import type { SearchRequest, SearchResult, SearchScope } from './types.js';
import type { SearchTask, SearchTaskAnswer } from './sqlite-search-worker.js';
import { workerFile } from '../worker-file.js';

interface Pending {
  resolve: (result: SearchResult) => void;
  reject: (error: Error) => void;
}

/** The compiled search worker (see workerFile); undefined without a build, and searches then run on the calling thread. */
export function searchWorkerFile(): string | undefined {
  return workerFile('search', 'sqlite-search-worker.js');
}

/**
 * Runs searches of a SQLite store's file on a worker thread with its own read-only connection. Why:
 * better-sqlite3 answers synchronously, so a costly search on the store's own connection (an `or`
 * of fuzzy filters over a large copy takes hundreds of milliseconds) would stall every other
 * request of the process, `/healthz` included. WAL mode lets this connection read committed data
 * while the store's connection writes. The worker starts on the first search and is restarted
 * if it ever dies; requests queue in order.
 */
export class SqliteSearchThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly workerFile: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Runs one validated search on the worker; its errors come back as the same typed errors. */
  search(scope: SearchScope, request: SearchRequest): Promise<SearchResult> {
    if (this.closed) return Promise.reject(new InternalError('the store is closed'));
    const id = this.nextId++;
    return new Promise<SearchResult>((resolve, reject) => {
      const worker = this.started();
      // Held while it has work: a script awaiting a search with nothing else to do must not exit (code 13).
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, scope, request } satisfies SearchTask);
    });
  }

  /** Stops the worker; searches still waiting fail. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new InternalError('the store was closed during a search'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile, { workerData: { path: this.path, busyTimeoutMs: this.busyTimeoutMs } });
    worker.on('message', (answer: SearchTaskAnswer) => this.settle(answer));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the search worker exited with code ${code}`)));
    // An idle worker must not keep the process alive (search() holds it while it has work); close() ends it.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(answer: SearchTaskAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('result' in answer) {
      waiting.resolve(answer.result as SearchResult);
      return;
    }
    const { code, message, details } = answer.error;
    waiting.reject(
      isErrorCode(code) ? errorFor(code, message, details ? { details: details as ErrorDetail[] } : {}) : new InternalError(`search failed: ${message}`),
    );
  }

  /** A dead worker fails what it held; the next search starts a new one. */
  private lost(worker: Worker, cause: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(new InternalError(`the search worker stopped: ${cause.message}`, { cause }));
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
