/**
 * A leaky-bucket request limiter. The shared plumbing only has a rolling-window limiter
 * (../rate-limiter.ts); Shopify's REST limit is a leaky bucket (API-NOTES B.4), so it lives here.
 */

/** The outcome of counting one request. */
export interface BucketDecision {
  allowed: boolean;
  /** Fill level after this request (fractional: the bucket leaks continuously). */
  level: number;
  size: number;
}

/**
 * Per-key buckets of `size` requests that drain at `leakPerSecond`. A request that fits adds one;
 * a request that would overflow is refused and adds nothing.
 * Why: B.4: "Bucket 40 requests, leak 2 requests/s": a client may burst 40 calls, then sustain 2/s.
 */
export class LeakyBucketLimiter {
  private readonly buckets = new Map<string, { level: number; at: number }>();

  constructor(
    private size: number,
    private leakPerSecond: number,
    private readonly now: () => number,
  ) {
    assertLimits(size, leakPerSecond);
  }

  /** Counts one request for `key` if the bucket has room. Why: decides 200 vs 429 per request. */
  hit(key: string): BucketDecision {
    const level = this.drain(key);
    if (level + 1 > this.size) return { allowed: false, level, size: this.size };
    this.buckets.set(key, { level: level + 1, at: this.now() });
    return { allowed: true, level: level + 1, size: this.size };
  }

  /** The fill level of `key` now, without counting a request. Why: headers on answers that spend nothing. */
  peek(key: string): BucketDecision {
    const level = this.drain(key);
    return { allowed: level + 1 <= this.size, level, size: this.size };
  }

  /**
   * Changes size and leak rate and empties every bucket.
   * Why: tests shrink the bucket (e.g. 3 at 1/s) to reach a 429 in a few requests.
   */
  configure(size: number, leakPerSecond: number): void {
    assertLimits(size, leakPerSecond);
    this.size = size;
    this.leakPerSecond = leakPerSecond;
    this.buckets.clear();
  }

  /** The configured size and leak rate. */
  get limits(): { size: number; leakPerSecond: number } {
    return { size: this.size, leakPerSecond: this.leakPerSecond };
  }

  private drain(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const elapsed = Math.max(0, this.now() - bucket.at) / 1000;
    const level = Math.max(0, bucket.level - elapsed * this.leakPerSecond);
    this.buckets.set(key, { level, at: this.now() });
    return level;
  }
}

function assertLimits(size: number, leakPerSecond: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`bucket size must be a positive integer, got ${size}`);
  if (!Number.isFinite(leakPerSecond) || leakPerSecond <= 0) throw new RangeError(`leak rate must be a positive number, got ${leakPerSecond}`);
}
