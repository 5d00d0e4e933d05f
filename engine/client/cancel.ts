import { CancelledError } from '../errors.js';

/** The CANCELLED of a call its caller's signal ended, worded as the library words it. */
export function cancelledBy(signal: AbortSignal, what: string): CancelledError {
  return new CancelledError(`${what} was cancelled by its caller's signal`, { cause: signal.reason });
}

/**
 * Settles as `work` does, unless `signal` aborts first: then `stop` ends the request in flight
 * and the promise rejects with CANCELLED (the signal's reason as its cause). The listener is
 * removed once `work` settles, so an abort after the answer changes nothing.
 */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined, what: string, stop: () => void): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      stop();
      reject(cancelledBy(signal, what));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
