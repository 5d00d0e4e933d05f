/** How a delivery is retried: exponential backoff from `baseDelayMs`, capped, for at most `maxAttempts` attempts. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 8). */
  maxAttempts: number;
  /** The wait after the first failed attempt (default 30 s); each next wait doubles. */
  baseDelayMs: number;
  /** The longest wait between attempts (default 1 h). */
  maxDelayMs: number;
}

/** About 30 s, 1, 2, 4, 8, 16, 32 min between eight attempts: a receiver down for an hour still gets its events. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 60 * 60_000 };

/**
 * The wait before the next attempt after `attempts` failed ones, or undefined when none is left.
 * No jitter: deliveries are spread by when their events happened, and tests assert exact delays.
 */
export function retryDelayMs(policy: RetryPolicy, attempts: number): number | undefined {
  if (attempts >= policy.maxAttempts) return undefined;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
}
