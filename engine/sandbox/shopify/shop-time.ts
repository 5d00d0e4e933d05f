/**
 * Timestamps as the Shopify REST Admin API writes and reads them.
 */

/**
 * The seeded store's time zone: America/Phoenix, UTC-07:00 all year (Arizona keeps no daylight
 * saving time), so every timestamp carries the same offset.
 */
export const SHOP_UTC_OFFSET_MINUTES = -7 * 60;
/** `timezone` and `iana_timezone` of the seeded shop (`shop.json`). */
export const SHOP_TIMEZONE = '(GMT-07:00) America/Phoenix';
/** `iana_timezone` of the seeded shop. */
export const SHOP_IANA_TIMEZONE = 'America/Phoenix';

/**
 * Formats epoch milliseconds as `2025-03-04T10:11:12-07:00`, whole seconds in the shop's offset.
 * Why: Shopify REST timestamps are ISO 8601 with the shop's UTC offset, never `Z` (API-NOTES B.6
 * fixtures: `"created_at":"2008-01-10T11:00:00-05:00"`), and clients must compare them as instants.
 */
export function shopTime(ms: number): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + SHOP_UTC_OFFSET_MINUTES * 60_000);
  const sign = SHOP_UTC_OFFSET_MINUTES < 0 ? '-' : '+';
  const abs = Math.abs(SHOP_UTC_OFFSET_MINUTES);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

/**
 * Parses a date filter value (`created_at_min=2026-01-01T00:00:00-05:00`, or a bare date) to epoch
 * milliseconds, or undefined when it is not an ISO 8601 date.
 * Why: the `*_min`/`*_max` filters take ISO 8601 (B.6 list params); a value without an offset is
 * read in the shop's time zone, as the Admin API does for shop-local dates.
 */
export function parseFilterTime(value: string): number | undefined {
  const text = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = match;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(utc)) return undefined;
  const check = new Date(utc);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return undefined;
  let offsetMinutes = SHOP_UTC_OFFSET_MINUTES;
  if (zone !== undefined) {
    if (/^(z|utc)$/i.test(zone)) offsetMinutes = 0;
    else {
      const digits = zone.replace(':', '');
      const magnitude = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
      offsetMinutes = digits.startsWith('-') ? -magnitude : magnitude;
    }
  }
  return utc - offsetMinutes * 60_000;
}
