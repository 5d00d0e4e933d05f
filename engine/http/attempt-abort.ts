/**
 * What one attempt hands undici as its `signal`. undici takes an EventEmitter in place of an
 * AbortSignal (its `request` options: `signal?: AbortSignal | EventEmitter | null`): it checks
 * `aborted` and `reason`, listens with `once('abort', fn)` and stops with
 * `removeListener('abort', fn)`, one listener per request. So one listener slot does. Why not an
 * AbortController per attempt: making its AbortSignal and adding and removing EventTarget
 * listeners (undici's and ours) cost more than the rest of an attempt's bookkeeping together.
 */
export class AttemptAbort {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined;

  /** undici checks for an `on` method to tell an EventEmitter. */
  on(_event: 'abort', listener: () => void): this {
    this.listener = listener;
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    if (this.listener === listener) this.listener = undefined;
    return this;
  }

  /** Aborts the attempt with `reason` (the first reason wins). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}
