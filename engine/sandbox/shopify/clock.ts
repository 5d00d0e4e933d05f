/**
 * The Shopify fake's clock: real time plus an offset that tests move forward.
 */

/** A clock tests can move forward (`fake.clock.advance(ms)`) instead of sleeping. */
export interface FakeClock {
  /** Milliseconds since the epoch, as the fake sees them. */
  now(): number;
  /** Moves the fake's time forward by `ms` (never backwards). */
  advance(ms: number): void;
  /** How far the clock has been moved ahead of real time, in milliseconds. */
  readonly offsetMs: number;
}

/**
 * Creates a clock that follows real time shifted by everything passed to `advance`.
 * Why: the leaky bucket drains at 2 requests per second (API-NOTES B.4) and issued tokens expire
 * (24 h for client-credentials tokens, B.2); tests jump past those moments in one call instead of
 * sleeping, while a long-running sandbox keeps moving with real time.
 */
export function createFakeClock(realNow: () => number = Date.now): FakeClock {
  let offset = 0;
  return {
    now: () => realNow() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance needs a non-negative number of milliseconds, got ${ms}`);
      offset += ms;
    },
    get offsetMs() {
      return offset;
    },
  };
}
