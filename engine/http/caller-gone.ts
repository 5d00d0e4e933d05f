/**
 * What can cancel a call (UpstreamCall reads only these members): the caller's AbortSignal, or a
 * {@link CallerGone}.
 */
export interface CancelSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The service's cancel source for one execute: aborted when its caller's connection closes before
 * the answer. Why not an AbortController: its signal is an EventTarget, and making one per request
 * and adding and removing the call's listener cost about 3% of the service's CPU per execute
 * (profile of bench-hosted, issue 15), although almost no caller ever leaves. This is two fields
 * and an array until then. The library checks it as it checks an AbortSignal (call options).
 */
export class CallerGone implements CancelSource {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> = [];

  /** Cancels every call listening, once; later calls are cancelled as they start. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** Listens for the abort (every listener is told once: `options` is taken for AbortSignal's shape). */
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }
}
