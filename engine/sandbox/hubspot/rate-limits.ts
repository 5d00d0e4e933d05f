/**
 * HubSpot's rate-limit policy (API-NOTES A5, A7): a rolling 10-second burst limit per app type,
 * a daily quota for private apps, and a separate per-second limiter for CRM search.
 */
import { randomUUID } from 'node:crypto';
import { RollingWindowLimiter, type LimitDecision } from '../rate-limiter.js';
import type { FakeResponse, HeaderValue } from '../responses.js';
import { hubspotError } from './errors.js';
import type { TokenScheme } from './credentials.js';

/** A7: Free/Starter private apps get 100 per 10 s and 250,000 per day. */
const PRIVATE_APP_BURST = 100;
const PRIVATE_APP_DAILY = 250_000;
/** A7: public (OAuth) apps get 110 per 10 s and no daily cap. */
const OAUTH_BURST = 110;
const BURST_WINDOW_MS = 10_000;
/** A5: five search requests per second per account. */
const SEARCH_PER_SECOND = 5;

/** The result of admitting one request: headers to add, or the 429 to answer. */
export type Admission = { allowed: true; headers: Record<string, HeaderValue> } | { allowed: false; response: FakeResponse };

/** Burst/daily/search limiters of one fake account. */
export class HubspotRateLimits {
  private readonly privateApp: RollingWindowLimiter;
  private readonly oauth: RollingWindowLimiter;
  private readonly search: RollingWindowLimiter;
  private dailyMax = PRIVATE_APP_DAILY;
  private dailyUsed = 0;
  private throttledCount = 0;

  /** `now`: the fake's clock, so tests move past a window instead of sleeping. */
  constructor(
    readonly enabled: boolean,
    now: () => number = Date.now,
  ) {
    this.privateApp = new RollingWindowLimiter(PRIVATE_APP_BURST, BURST_WINDOW_MS, now);
    this.oauth = new RollingWindowLimiter(OAUTH_BURST, BURST_WINDOW_MS, now);
    this.search = new RollingWindowLimiter(SEARCH_PER_SECOND, 1000, now);
  }

  /**
   * Sets the burst limit of both app types (tests make it small to reach a 429 quickly).
   * Why: waiting for 100 requests would make rate-limit tests slow.
   */
  setBurstLimit(max: number, windowMs: number): void {
    this.privateApp.configure(max, windowMs);
    this.oauth.configure(max, windowMs);
  }

  /**
   * Restores the A5/A7 defaults (100 and 110 per 10 s, 5 searches per second, 250,000 a day) and
   * forgets all counted requests. Why: a test that shrank a limit puts the fake back as it found it.
   */
  restoreDefaults(): void {
    this.privateApp.configure(PRIVATE_APP_BURST, BURST_WINDOW_MS);
    this.oauth.configure(OAUTH_BURST, BURST_WINDOW_MS);
    this.search.configure(SEARCH_PER_SECOND, 1000);
    this.dailyMax = PRIVATE_APP_DAILY;
    this.dailyUsed = 0;
    this.throttledCount = 0;
  }

  /** Sets the search limiter (default 5 per 1000 ms). Why: same as {@link setBurstLimit}. */
  setSearchLimit(max: number, windowMs: number): void {
    this.search.configure(max, windowMs);
  }

  /** Sets the private-app daily quota and forgets today's usage. Why: makes the DAILY 429 reachable. */
  setDailyLimit(max: number): void {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`daily limit must be a positive integer, got ${max}`);
    this.dailyMax = max;
    this.dailyUsed = 0;
  }

  /**
   * Admits a non-search API request and returns the A7 headers, or a 429.
   * Headers: `X-HubSpot-RateLimit-Max`, `-Remaining`, `-Interval-Milliseconds`, plus `-Daily` and
   * `-Daily-Remaining` for private apps only (A7 [3p]: absent for OAuth apps).
   */
  admit(scheme: TokenScheme, correlationId: string): Admission {
    if (!this.enabled) return { allowed: true, headers: {} };
    if (scheme === 'private_app' && this.dailyUsed >= this.dailyMax) {
      return {
        allowed: false,
        response: this.throttled('DAILY', 'You have reached your daily limit.', correlationId, this.headers(scheme, this.burst(scheme).peek()), 0),
      };
    }
    const decision = this.burst(scheme).hit();
    if (!decision.allowed) {
      return {
        allowed: false,
        response: this.throttled(
          'TEN_SECONDLY_ROLLING',
          'You have reached your ten_secondly_rolling limit.',
          correlationId,
          this.headers(scheme, decision),
          decision.retryAfterMs,
        ),
      };
    }
    if (scheme === 'private_app') this.dailyUsed += 1;
    return { allowed: true, headers: this.headers(scheme, decision) };
  }

  /**
   * Admits a search request: its own 5/s limiter, exempt from the burst limit (spec
   * `x-hubspot-rate-limit-exemptions: ["ten-secondly"]`), counted in the daily quota; search
   * responses carry no rate-limit headers (A7 [3p]).
   */
  admitSearch(scheme: TokenScheme, correlationId: string): Admission {
    if (!this.enabled) return { allowed: true, headers: {} };
    if (scheme === 'private_app' && this.dailyUsed >= this.dailyMax) {
      return { allowed: false, response: this.throttled('DAILY', 'You have reached your daily limit.', correlationId, {}, 0) };
    }
    const decision = this.search.hit();
    if (!decision.allowed) {
      // A6 [sdk]: the search throttle says "You have reached your secondly limit."
      return { allowed: false, response: this.throttled('SECONDLY', 'You have reached your secondly limit.', correlationId, {}, decision.retryAfterMs) };
    }
    if (scheme === 'private_app') this.dailyUsed += 1;
    return { allowed: true, headers: {} };
  }

  /**
   * The 429 that `rateLimitNext` injects: a TEN_SECONDLY_ROLLING body with the caller's headers
   * at Remaining 0, and the Retry-After the test chose.
   * Why: injected storms must look exactly like real throttling.
   */
  injected(scheme: TokenScheme | undefined, correlationId: string, retryAfter: string | undefined): FakeResponse {
    const headers = scheme && this.enabled ? { ...this.headers(scheme, { ...this.burst(scheme).peek(), remaining: 0 }) } : {};
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    return rateLimitBody('TEN_SECONDLY_ROLLING', 'You have reached your ten_secondly_rolling limit.', correlationId, headers);
  }

  private burst(scheme: TokenScheme): RollingWindowLimiter {
    return scheme === 'oauth' ? this.oauth : this.privateApp;
  }

  private headers(scheme: TokenScheme, decision: LimitDecision): Record<string, HeaderValue> {
    const headers: Record<string, HeaderValue> = {
      'X-HubSpot-RateLimit-Max': decision.limit,
      'X-HubSpot-RateLimit-Remaining': decision.remaining,
      'X-HubSpot-RateLimit-Interval-Milliseconds': decision.windowMs,
    };
    if (scheme === 'private_app') {
      headers['X-HubSpot-RateLimit-Daily'] = this.dailyMax;
      headers['X-HubSpot-RateLimit-Daily-Remaining'] = Math.max(0, this.dailyMax - this.dailyUsed);
    }
    return headers;
  }

  /**
   * A real 429. `Retry-After` is sent on every other one (A6 [3p]: "not always present"), so
   * clients are exercised with and without it.
   */
  private throttled(policyName: string, message: string, correlationId: string, headers: Record<string, HeaderValue>, retryAfterMs: number): FakeResponse {
    const withRetryAfter = this.throttledCount % 2 === 0;
    this.throttledCount += 1;
    const out: Record<string, HeaderValue> = { ...headers };
    if (withRetryAfter) out['Retry-After'] = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return rateLimitBody(policyName, message, correlationId, out);
  }
}

/**
 * The 429 body of A6/A8: `{status, message, errorType:"RATE_LIMIT", correlationId, policyName,
 * requestId}`. The observed bodies carry no `category`, which the spec's `Error` requires; the fake
 * adds `category: "RATE_LIMITS"` so that its responses validate against upstream-specs/ (DESIGN.md
 * §8) while keeping every observed field.
 */
export function rateLimitBody(policyName: string, message: string, correlationId: string, headers: Record<string, HeaderValue>): FakeResponse {
  return hubspotError(429, 'RATE_LIMITS', message, correlationId, { errorType: 'RATE_LIMIT', policyName, requestId: randomUUID() }, headers);
}
