/**
 * Amazon Ads throttling (API-NOTES A.6): limits are per advertiser profile and not published
 * ("dynamic and based on system load"), so the fake uses a fixed rolling 10 requests per second
 * per profile, list calls with extended data weigh 5 (A.5), and a refused call gets 429 THROTTLED
 * with an integer `Retry-After`.
 */
import type { FakeResponse } from '../responses.js';
import { throttled, type ApiFamily } from './errors.js';
import { WeightedRollingLimiter } from './weighted-limiter.js';

/** The fake's per-profile budget: 10 weight units per rolling second. */
export const DEFAULT_RATE_LIMIT = { max: 10, windowMs: 1000 } as const;
/** A.5: list calls with `includeExtendedDataFields` "hold 5x the weight of standard calls". */
export const EXTENDED_DATA_WEIGHT = 5;

/** Admitted, or the 429 to answer. */
export type RateDecision = { allowed: true } | { allowed: false; response: FakeResponse };

/** The throttle of one fake account. */
export class AdsRateLimits {
  private readonly limiter: WeightedRollingLimiter;

  constructor(
    readonly enabled: boolean,
    now: () => number = Date.now,
  ) {
    this.limiter = new WeightedRollingLimiter(DEFAULT_RATE_LIMIT.max, DEFAULT_RATE_LIMIT.windowMs, now);
  }

  /** Sets the per-profile budget. Why: tests make it small to reach a 429 quickly. */
  setLimit(max: number, windowMs: number): void {
    this.limiter.configure(max, windowMs);
  }

  /** Back to 10 per second with empty windows. Why: a test that shrank the limit restores it. */
  restoreDefaults(): void {
    this.limiter.configure(DEFAULT_RATE_LIMIT.max, DEFAULT_RATE_LIMIT.windowMs);
  }

  /**
   * Charges one request of `weight` to `key` (a profile, or the client for unscoped calls).
   * Why: A.6: throttled calls get 429 and "a Retry-After header … number of seconds".
   */
  admit(key: string, weight: number, family: ApiFamily): RateDecision {
    if (!this.enabled) return { allowed: true };
    const decision = this.limiter.hit(key, weight);
    if (decision.allowed) return { allowed: true };
    return { allowed: false, response: throttled(family, String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)))) };
  }
}
