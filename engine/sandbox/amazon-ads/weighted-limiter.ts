/**
 * A rolling-window limiter whose requests can weigh more than one.
 * The shared RollingWindowLimiter counts every request once; Amazon Ads charges list calls with
 * extended data five times (API-NOTES A.5 "hold 5x the weight of standard calls towards
 * throttling limits"), and a refused heavy call must not spend part of the budget.
 */

/** The outcome of charging one request. */
export interface WeightedDecision {
  allowed: boolean;
  /** Budget left in the window after this request (0 when refused). */
  remaining: number;
  /** When refused: milliseconds until enough weight has left the window; else 0. */
  retryAfterMs: number;
}

/** Allows at most `max` units of weight per key in any rolling `windowMs` window. */
export class WeightedRollingLimiter {
  private readonly hits = new Map<string, Array<{ at: number; weight: number }>>();

  constructor(
    private max: number,
    private windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    assertLimits(max, windowMs);
  }

  /**
   * Charges `weight` (capped at `max`, so one heavy call fits an empty window) to `key` when the
   * window has room; refused requests are not charged.
   * Why: the fake throttles exactly when the budget is spent, and says when to retry.
   */
  hit(key: string, weight = 1): WeightedDecision {
    const cost = Math.min(Math.max(1, Math.ceil(weight)), this.max);
    const now = this.now();
    const entries = this.prune(key, now);
    const used = entries.reduce((sum, entry) => sum + entry.weight, 0);
    if (used + cost <= this.max) {
      entries.push({ at: now, weight: cost });
      return { allowed: true, remaining: this.max - used - cost, retryAfterMs: 0 };
    }
    let freed = 0;
    let retryAfterMs = this.windowMs;
    for (const entry of entries) {
      freed += entry.weight;
      if (used - freed + cost <= this.max) {
        retryAfterMs = entry.at + this.windowMs - now;
        break;
      }
    }
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, retryAfterMs) };
  }

  /** Changes the limit and window, forgetting past requests. Why: tests shrink limits to reach a 429. */
  configure(max: number, windowMs: number): void {
    assertLimits(max, windowMs);
    this.max = max;
    this.windowMs = windowMs;
    this.hits.clear();
  }

  private prune(key: string, now: number): Array<{ at: number; weight: number }> {
    let entries = this.hits.get(key);
    if (!entries) {
      entries = [];
      this.hits.set(key, entries);
    }
    let drop = 0;
    while (drop < entries.length && (entries[drop]?.at ?? 0) <= now - this.windowMs) drop += 1;
    if (drop > 0) entries.splice(0, drop);
    return entries;
  }
}

function assertLimits(max: number, windowMs: number): void {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`rate limit max must be a positive integer, got ${max}`);
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`rate limit window must be positive, got ${windowMs}`);
}
