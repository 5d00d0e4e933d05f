/**
 * The fixed calendar of the seeded store, independent of the wall clock so that the same seed
 * always yields the same records.
 */

/** Milliseconds per hour, for seed arithmetic. */
export const HOUR = 3_600_000;
/** Milliseconds per day. */
export const DAY = 24 * HOUR;
/** The store opened here (`shop.created_at`). */
export const SHOP_OPENED = Date.UTC(2024, 8, 15, 16);
/** First product. */
export const CATALOG_START = Date.UTC(2024, 9, 1);
/** First customer sign-up. */
export const CUSTOMERS_START = Date.UTC(2024, 10, 1);
/** First order. */
export const ORDERS_START = Date.UTC(2025, 0, 1);
/** First draft order. */
export const DRAFTS_START = Date.UTC(2026, 0, 1);
/** "Now" as the seed sees it: nothing seeded happens after this instant. */
export const SEED_NOW = Date.UTC(2026, 10, 1, 19);

/** `ms`, but never later than {@link SEED_NOW}. */
export function notAfterNow(ms: number): number {
  return Math.min(ms, SEED_NOW);
}
