/**
 * Date-times as Gong writes and reads them (C.3: ISO-8601 such as '2018-02-18T02:30:00-07:00'
 * or '2018-02-18T08:00:00Z').
 */

/**
 * The offset the seeded company's times are rendered in. The spec's examples carry local offsets
 * (`2018-02-17T02:30:00-08:00`); a fixed -07:00 makes clients parse offsets, not just `Z`.
 */
const COMPANY_OFFSET_MINUTES = -7 * 60;

/**
 * Renders an instant in the company's offset, to the second: `2024-07-01T09:30:00-07:00`.
 * Why: users' `created`, calls' `scheduled`/`started` and comments' `posted` all use this form.
 */
export function renderTime(ms: number): string {
  const local = new Date(ms + COMPANY_OFFSET_MINUTES * 60_000).toISOString().slice(0, 19);
  const sign = COMPANY_OFFSET_MINUTES < 0 ? '-' : '+';
  const abs = Math.abs(COMPANY_OFFSET_MINUTES);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses an ISO-8601 date-time with a zone (`Z` or `±hh:mm`) to epoch milliseconds, or undefined.
 * A value without a zone is refused: the spec's formats always carry one, and guessing a zone
 * would hide a client bug that shifts every date range by hours (an unverified strictness).
 * Why: `fromDateTime`/`toDateTime` of the calls filters (C.3).
 */
export function parseDateTime(value: string): number | undefined {
  const match = ISO_DATE_TIME.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? '0');
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second, Math.floor(Number(`0.${fraction ?? '0'}`) * 1000));
  if (new Date(ms).getUTCDate() !== day) return undefined;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    if (offset > 18 * 60) return undefined;
    ms -= sign * offset * 60_000;
  }
  return ms;
}
