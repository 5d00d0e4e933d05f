/**
 * Where the engine reads time and schedules waits. Every part that waits or expires something (the
 * HTTP client's retries and deadlines, the rate limiter, the auth session, the token issuer, the
 * store's leases, the sync scheduler) takes one, so a test can move time instead of waiting for it
 * and assert the delays the engine schedules.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `run` once after `ms`. The timer does not hold the process open. */
  setTimer(run: () => void, ms: number): ClockTimer;
  /** Calls `run` every `ms` until cancelled. The timer does not hold the process open. */
  setRepeating(run: () => void, ms: number): ClockTimer;
}

/** A scheduled timer. */
export interface ClockTimer {
  /** Stops the timer; it does nothing when already fired or cancelled. */
  cancel(): void;
}

/** Real time: Date.now and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  setTimer(run, ms) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  setRepeating(run, ms) {
    const timer = setInterval(run, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};
