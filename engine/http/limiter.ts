/** Limits of one connector instance: a rolling window of requests and a cap on requests in flight. */
export interface LimiterOptions {
  requests?: number;
  perMs?: number;
  concurrency?: number;
}

/**
 * Keeps a connector under the upstream's published rate limit before the upstream has to say 429,
 * and bounds the requests in flight. The window is rolling, as upstream limits usually are:
 * an attempt waits until the oldest of the last `requests` attempts has left the window.
 */
export class RequestLimiter {
  private readonly starts: number[] = [];
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private windowChain: Promise<void> = Promise.resolve();

  constructor(private readonly options: LimiterOptions) {}

  /** Runs `task` when a concurrency slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const max = this.options.concurrency ?? Number.POSITIVE_INFINITY;
    if (this.inFlight >= max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await task();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  /** Resolves when one more attempt fits in the rolling window; every attempt (retries too) calls it. */
  attempt(): Promise<void> {
    const { requests, perMs } = this.options;
    if (!requests || !perMs) return Promise.resolve();
    const next = this.windowChain.then(async () => {
      const now = Date.now();
      while (this.starts.length > 0 && (this.starts[0] as number) <= now - perMs) this.starts.shift();
      if (this.starts.length >= requests) {
        const wait = (this.starts[0] as number) + perMs - now;
        await new Promise((resolve) => setTimeout(resolve, wait));
        this.starts.shift();
      }
      this.starts.push(Date.now());
    });
    this.windowChain = next;
    return next;
  }
}
