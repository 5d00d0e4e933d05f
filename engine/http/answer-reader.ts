import type { Dispatcher } from 'undici';

/** An answer as undici hands it over: its status, headers and body bytes. */
export interface ReadAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/**
 * An undici dispatch handler that reads one whole answer into memory, and can be aborted at any
 * time. Why not undici's request() and body.text(): those wrap every answer in an async resource,
 * a Readable stream with its listeners and a consume promise, only for the bytes to be gathered
 * in the end; gathering them here costs a few pushes. Informational (1xx) answers are skipped, as
 * request() skips them.
 */
export class AnswerReader implements Dispatcher.DispatchHandler {
  readonly promise: Promise<ReadAnswer>;
  private resolve!: (answer: ReadAnswer) => void;
  private reject!: (error: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the attempt was aborted, if it was: undici aborts with it once it starts the request. */
  private reason: Error | undefined;
  private settled = false;
  private status = 0;
  private headers: ReadAnswer['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;

  constructor() {
    this.promise = new Promise<ReadAnswer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Ends the attempt with `reason` (the first one wins): the promise rejects at once, the request is aborted. */
  abort(reason: Error): void {
    if (this.settled) return;
    this.settle();
    this.reason = reason;
    this.reject(reason);
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.reason) controller.abort(this.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: ReadAnswer['headers']): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    if (this.settled) return;
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    this.settle();
    this.resolve({ status: this.status, headers: this.headers, bytes });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settle();
    this.reject(error);
  }

  private settle(): void {
    this.settled = true;
    this.chunks.length = 0;
  }
}
