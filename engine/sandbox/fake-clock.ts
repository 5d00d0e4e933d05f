/**
 * A fake's clock: real time plus an offset that tests move forward.
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
 * Why: token lifetimes, expiring page tokens and download URLs, and rate-limit windows all depend
 * on time (e.g. Asana's two-minute download URLs, Shopify's 2/s leaky bucket); tests jump past those
 * deadlines in one call, while a long-running sandbox keeps moving with real time.
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
