/**
 * Rolling-window request limiter shared by the fakes' upstream rate limits.
 */

/** The outcome of counting one request. */
export interface LimitDecision {
  allowed: boolean;
  /** The configured maximum per window. */
  limit: number;
  /** Requests still allowed in the current window after this one. */
  remaining: number;
  windowMs: number;
  /** When rejected: milliseconds until the oldest counted request leaves the window; else 0. */
  retryAfterMs: number;
}

/** Options of {@link RollingWindowLimiter.hit}. */
export interface HitOptions {
  /** Also count a refused request in the window (default false). */
  countRejected?: boolean;
}

/**
 * Allows at most `max` requests per key in any rolling `windowMs` window.
 * Upstreams limit by a sliding window (HubSpot: "100 per 10 s, rolling", API-NOTES A7), not by
 * fixed buckets, so a client that bursts at a window edge is still throttled.
 */
export class RollingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private max: number,
    private windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    assertLimits(max, windowMs);
  }

  /**
   * Counts one request for `key` if the window has room; rejected requests are not counted unless
   * `options.countRejected` is set.
   * Why: the fakes answer 429 exactly when the real upstream would, and report the remaining
   * budget in headers. Some upstreams also charge refused requests to the quota (Asana, API-NOTES
   * B7: "Rejected requests still count against the quota"), so a client that retries without
   * waiting stays throttled.
   */
  hit(key = 'default', options: HitOptions = {}): LimitDecision {
    const now = this.now();
    const times = this.prune(key, now);
    if (times.length >= this.max) {
      if (options.countRejected) times.push(now);
      // The next request is admitted once all but max-1 of the counted requests left the window.
      const blocking = times[times.length - this.max] ?? times[0] ?? now;
      return {
        allowed: false,
        limit: this.max,
        remaining: 0,
        windowMs: this.windowMs,
        retryAfterMs: Math.max(1, blocking + this.windowMs - now),
      };
    }
    times.push(now);
    return { allowed: true, limit: this.max, remaining: this.max - times.length, windowMs: this.windowMs, retryAfterMs: 0 };
  }

  /**
   * Reports the state of `key` without counting a request.
   * Why: a fault-injected 429 must carry the same headers as a real one without spending budget.
   */
  peek(key = 'default'): LimitDecision {
    const now = this.now();
    const times = this.prune(key, now);
    const remaining = Math.max(0, this.max - times.length);
    const oldest = times[0] ?? now;
    return {
      allowed: remaining > 0,
      limit: this.max,
      remaining,
      windowMs: this.windowMs,
      retryAfterMs: remaining > 0 ? 0 : Math.max(1, oldest + this.windowMs - now),
    };
  }

  /**
   * Changes the limit and window, forgetting past requests.
   * Why: tests shrink limits (e.g. 3 per second) to reach a 429 quickly and deterministically.
   */
  configure(max: number, windowMs: number): void {
    assertLimits(max, windowMs);
    this.max = max;
    this.windowMs = windowMs;
    this.hits.clear();
  }

  /** Forgets all counted requests. Why: lets a test start from a full budget. */
  reset(): void {
    this.hits.clear();
  }

  private prune(key: string, now: number): number[] {
    let times = this.hits.get(key);
    if (!times) {
      times = [];
      this.hits.set(key, times);
    }
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) <= now - this.windowMs) drop += 1;
    if (drop > 0) times.splice(0, drop);
    return times;
  }
}

function assertLimits(max: number, windowMs: number): void {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`rate limit max must be a positive integer, got ${max}`);
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`rate limit window must be positive, got ${windowMs}`);
}
