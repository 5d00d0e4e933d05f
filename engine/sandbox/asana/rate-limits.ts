/**
 * Asana's rate-limit policy (API-NOTES B7): per token, 150 requests per rolling minute, a separate
 * 60 per minute for task search, and at most 50 reads (GET) in flight at once.
 */
import type { Admission } from '../fake-server.js';
import { RollingWindowLimiter } from '../rate-limiter.js';
import type { FakeResponse } from '../responses.js';
import type { RouteKind } from '../router.js';
import { bearerToken } from './authenticate.js';
import { rateLimited } from './errors.js';
import type { FakeClock } from '../fake-clock.js';

/** B7 [doc]: free domains get 150 requests per minute per token (paid ones 1,500). */
const STANDARD_PER_MINUTE = 150;
/** B7 [doc]: the search API allows 60 requests per minute. */
const SEARCH_PER_MINUTE = 60;
const MINUTE_MS = 60_000;
/** B7 [doc]: at most 50 concurrent reads per token; the 51st in flight gets 429. */
const MAX_CONCURRENT_READS = 50;
/**
 * `Retry-After` of a concurrency 429: one second. What Asana sends there is [unverified]; an
 * in-flight read usually finishes within a second.
 */
const CONCURRENCY_RETRY_SECONDS = 1;

/** The result of admitting one request. */
export type LimitOutcome = { allowed: true } | { allowed: false; response: FakeResponse };

/** The limiters of one fake; all keyed by bearer token (B7: "each token has its own quota"). */
export class AsanaRateLimits {
  private readonly standard: RollingWindowLimiter;
  private readonly search: RollingWindowLimiter;
  private maxConcurrentReads = MAX_CONCURRENT_READS;
  private readonly inFlight = new Map<string, number>();

  constructor(
    readonly enabled: boolean,
    clock: FakeClock,
  ) {
    this.standard = new RollingWindowLimiter(STANDARD_PER_MINUTE, MINUTE_MS, clock.now);
    this.search = new RollingWindowLimiter(SEARCH_PER_MINUTE, MINUTE_MS, clock.now);
  }

  /**
   * Counts one API request of `token`; over the limit it answers B7's 429 with `Retry-After` in
   * seconds. Refused requests are counted too (B7: "Rejected requests still count against the
   * quota"), so a client that retries early stays refused.
   */
  admit(token: string): LimitOutcome {
    if (!this.enabled) return { allowed: true };
    const decision = this.standard.hit(token, { countRejected: true });
    if (decision.allowed) return { allowed: true };
    return { allowed: false, response: rateLimited(String(Math.ceil(decision.retryAfterMs / 1000))) };
  }

  /** Counts a task search against its own 60/min limit (after {@link admit}). Why: B4/B7. */
  admitSearch(token: string): LimitOutcome {
    if (!this.enabled) return { allowed: true };
    const decision = this.search.hit(token, { countRejected: true });
    if (decision.allowed) return { allowed: true };
    return { allowed: false, response: rateLimited(String(Math.ceil(decision.retryAfterMs / 1000))) };
  }

  /**
   * The server's admission hook: a GET on an API route holds one of its token's 50 read slots
   * until answered; the 51st gets an immediate 429. Requests without a bearer token are not
   * capped (they get a 401 anyway).
   * Why: B7: "at most 50 concurrent reads (GET) ... The 51st in-flight read gets 429".
   */
  enter(req: { method: string; headers: Record<string, string | string[] | undefined> }, kind: RouteKind): Admission | undefined {
    if (!this.enabled || kind !== 'api' || req.method !== 'GET') return undefined;
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const current = this.inFlight.get(token) ?? 0;
    if (current >= this.maxConcurrentReads) return { reject: rateLimited(String(CONCURRENCY_RETRY_SECONDS)) };
    this.inFlight.set(token, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.inFlight.get(token) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(token);
        else this.inFlight.set(token, left);
      },
    };
  }

  /** Reads of `token` in flight now. Why: tests check that slots are given back. */
  readsInFlight(token: string): number {
    return this.inFlight.get(token) ?? 0;
  }

  /** Sets the per-token request limit (default 150 per 60,000 ms). Why: tests reach a 429 quickly. */
  setRateLimit(max: number, windowMs: number): void {
    this.standard.configure(max, windowMs);
  }

  /** Sets the per-token search limit (default 60 per 60,000 ms). */
  setSearchRateLimit(max: number, windowMs: number): void {
    this.search.configure(max, windowMs);
  }

  /** Sets the per-token cap on reads in flight (default 50). */
  setConcurrencyLimit(max: number): void {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${max}`);
    this.maxConcurrentReads = max;
  }

  /** Back to B7's limits with empty windows. Why: a test that shrank a limit restores the fake. */
  restoreDefaults(): void {
    this.standard.configure(STANDARD_PER_MINUTE, MINUTE_MS);
    this.search.configure(SEARCH_PER_MINUTE, MINUTE_MS);
    this.maxConcurrentReads = MAX_CONCURRENT_READS;
  }
}
