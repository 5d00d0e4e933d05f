/**
 * Shopify's REST rate-limit policy (API-NOTES B.4): a leaky bucket of 40 calls per access token
 * draining 2 calls per second, reported in `X-Shopify-Shop-Api-Call-Limit`.
 */
import type { FakeResponse, HeaderValue } from '../responses.js';
import type { FakeClock } from '../fake-clock.js';
import { shopifyError } from './errors.js';
import { LeakyBucketLimiter, type BucketDecision } from './leaky-bucket.js';

/** B.4: "Bucket 40 requests, leak 2 requests/s on standard plans". */
export const DEFAULT_BUCKET_SIZE = 40;
/** B.4: the standard plan's leak rate (calls per second). */
export const DEFAULT_LEAK_PER_SECOND = 2;
/** B.4: "Over the limit → 429 Too Many Requests with `Retry-After: 2.0` (float seconds)". */
export const THROTTLED_RETRY_AFTER = '2.0';
/** The response header of B.4 (`X-Shopify-Shop-Api-Call-Limit: 32/40`). */
export const CALL_LIMIT_HEADER = 'X-Shopify-Shop-Api-Call-Limit';

/** The result of admitting one request: headers to add, or the 429 to answer. */
export type Admission = { allowed: true; headers: Record<string, HeaderValue> } | { allowed: false; response: FakeResponse };

/** The per-token buckets of the fake store. */
export class ShopifyRateLimits {
  private readonly bucket: LeakyBucketLimiter;

  constructor(
    readonly enabled: boolean,
    clock: FakeClock,
  ) {
    this.bucket = new LeakyBucketLimiter(DEFAULT_BUCKET_SIZE, DEFAULT_LEAK_PER_SECOND, () => clock.now());
  }

  /**
   * Counts a request of `token` and returns the call-limit header, or the real 429.
   * With rate limits off nothing is counted and no header is sent (benchmarks).
   */
  admit(token: string): Admission {
    if (!this.enabled) return { allowed: true, headers: {} };
    const decision = this.bucket.hit(token);
    if (!decision.allowed) return { allowed: false, response: this.throttled(decision, THROTTLED_RETRY_AFTER) };
    return { allowed: true, headers: { [CALL_LIMIT_HEADER]: callLimit(decision) } };
  }

  /**
   * The call-limit header of `token` without counting (empty with rate limits off).
   * Why: B.4/checklist: "Send `X-Shopify-Shop-Api-Call-Limit: n/40` on every response", also on
   * answers that spent nothing (injected faults, unknown paths).
   */
  headersFor(token: string): Record<string, HeaderValue> {
    if (!this.enabled) return {};
    return { [CALL_LIMIT_HEADER]: callLimit(this.bucket.peek(token)) };
  }

  /**
   * The 429 that `rateLimitNext` injects: the real body, the Retry-After the test chose (none for
   * `retryAfter: 'none'`) and, for an authenticated caller, the call-limit header of a full bucket.
   * Why: injected storms must look exactly like real throttling.
   */
  injected(retryAfter: string | undefined, authenticated: boolean): FakeResponse {
    const { size, leakPerSecond } = this.bucket.limits;
    return throttledResponse(leakPerSecond, this.enabled && authenticated ? `${size}/${size}` : undefined, retryAfter);
  }

  /**
   * Sets bucket size and leak rate for every token and empties the buckets.
   * Why: tests reach a 429 with a small bucket (B.4's 40 would take 41 requests).
   */
  setLimit(bucketSize: number, leakPerSecond: number): void {
    this.bucket.configure(bucketSize, leakPerSecond);
  }

  /** Back to 40 at 2/s with empty buckets. Why: a test that shrank the bucket restores the fake. */
  restoreDefaults(): void {
    this.bucket.configure(DEFAULT_BUCKET_SIZE, DEFAULT_LEAK_PER_SECOND);
  }

  private throttled(decision: BucketDecision, retryAfter: string): FakeResponse {
    return throttledResponse(this.bucket.limits.leakPerSecond, `${Math.ceil(decision.level - 1e-9)}/${decision.size}`, retryAfter);
  }
}

/** `used/size`, the used count rounded up (the bucket leaks continuously; the header shows whole calls). */
function callLimit(decision: BucketDecision): string {
  return `${Math.ceil(decision.level - 1e-9)}/${decision.size}`;
}

/**
 * B.4's 429: `{"errors":"Exceeded 2 calls per second for api client. Reduce request rates to
 * resume uninterrupted service."}` (the rate in the text follows `setRateLimit`), with
 * `Retry-After` and the call-limit header. The Ruby fixtures' `"Call limit exceeded"` variant is
 * not used; the notes call the "Exceeded…" text the commonly seen live one.
 */
function throttledResponse(leakPerSecond: number, callLimitValue: string | undefined, retryAfter: string | undefined): FakeResponse {
  const headers: Record<string, HeaderValue> = {};
  if (retryAfter !== undefined) headers['Retry-After'] = retryAfter;
  if (callLimitValue !== undefined) headers[CALL_LIMIT_HEADER] = callLimitValue;
  return shopifyError(
    429,
    `Exceeded ${formatRate(leakPerSecond)} calls per second for api client. Reduce request rates to resume uninterrupted service.`,
    headers,
  );
}

function formatRate(rate: number): string {
  return Number.isInteger(rate) ? String(rate) : String(Math.round(rate * 100) / 100);
}
