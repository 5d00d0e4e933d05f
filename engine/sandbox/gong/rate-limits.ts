/**
 * Gong's rate limits (API-NOTES C.2): "3 API calls per second, and 10,000 API calls per day" per
 * company, answered with 429, an integer `Retry-After` (seconds) and an ErrorResponse body.
 */
import type { FakeRequest } from '../fake-server.js';
import { RollingWindowLimiter } from '../rate-limiter.js';
import type { FakeResponse } from '../responses.js';
import { gongError } from './errors.js';

const PER_SECOND = 3;
const SECOND_MS = 1000;
const PER_DAY = 10_000;
const DAY_MS = 86_400_000;
/** The spec's description of the 429 response, used as the message [the live text is unverified]. */
export const RATE_LIMIT_MESSAGE = 'API request limit exceeded';

/** The limits of the one seeded company, shared by both hosts and both auth schemes. */
export class GongRateLimits {
  private readonly burst: RollingWindowLimiter;
  private readonly daily: RollingWindowLimiter;

  constructor(
    readonly enabled: boolean,
    now: () => number = Date.now,
  ) {
    this.burst = new RollingWindowLimiter(PER_SECOND, SECOND_MS, now);
    this.daily = new RollingWindowLimiter(PER_DAY, DAY_MS, now);
  }

  /**
   * Counts one authenticated API request, or returns the 429 to answer. The daily budget is
   * checked first without spending it, so a request refused per second does not use the day's.
   * Refused requests are not counted (C.2 does not say they are).
   */
  admit(req: FakeRequest): FakeResponse | undefined {
    if (!this.enabled) return undefined;
    const day = this.daily.peek();
    if (!day.allowed) return rateLimited(req, day.retryAfterMs);
    const second = this.burst.hit();
    if (!second.allowed) return rateLimited(req, second.retryAfterMs);
    this.daily.hit();
    return undefined;
  }

  /** Sets the per-second limit (default 3 per 1000 ms). Why: tests reach a 429 quickly. */
  setRateLimit(max: number, windowMs: number): void {
    this.burst.configure(max, windowMs);
  }

  /** Sets the daily limit (default 10,000) and forgets today's usage. Why: makes the daily 429 reachable. */
  setDailyLimit(max: number): void {
    this.daily.configure(max, DAY_MS);
  }

  /** Restores 3/s and 10,000/day with empty windows. Why: a test puts the fake back as it found it. */
  restoreDefaults(): void {
    this.burst.configure(PER_SECOND, SECOND_MS);
    this.daily.configure(PER_DAY, DAY_MS);
  }
}

/**
 * A Gong 429: ErrorResponse body and `Retry-After` in whole seconds (at least 1), or the value a
 * fault switch chose (`undefined`: no header).
 * Why: C.2: "a Retry-After header indicates how many seconds to wait" (an int32 in the spec).
 */
export function rateLimited(req: FakeRequest, retryAfterMs: number | undefined, headerValue?: string): FakeResponse {
  const headers: Record<string, string> = {};
  if (headerValue !== undefined) headers['retry-after'] = headerValue;
  else if (retryAfterMs !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return gongError(req, 429, RATE_LIMIT_MESSAGE, headers);
}
