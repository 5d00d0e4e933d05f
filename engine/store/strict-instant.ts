/**
 * The reading rule for date-time-typed fields (issue 12 §1): a value is an instant in epoch
 * milliseconds, or has none. SQLite runs this module as a function; PostgreSQL runs the same rule
 * written in SQL arithmetic (engine/search/postgres-instant.ts), on the same pattern text.
 */

/**
 * `YYYY-MM-DD`, optionally `THH:MM`, `:SS`, a fraction of 1 to 9 digits (nanoseconds, the finest
 * ISO 8601 writers use), then `Z`, `+HH:MM`, `-HH:MM` or nothing. Capture groups: 1 year, 2 month,
 * 3 day, 4 hour, 5 minute, 6 second, 7 fraction, 8 zone, 9 zone sign, 10 zone hours, 11 zone
 * minutes. JavaScript and PostgreSQL's ARE read this text alike.
 */
export const ISO_INSTANT_SOURCE =
  '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.]([0-9]{1,9}))?)?(Z|([+-])([0-9]{2}):([0-9]{2}))?)?$';

/**
 * Epoch milliseconds written as 1 to 15 digits: the CRM upstream sends datetimes "as ISO or epoch-ms
 * strings" (API-NOTES A5 record shape). 15 digits reach past the year 30000 and stay exact in a double.
 */
export const EPOCH_MS_SOURCE = '^[0-9]{1,15}$';

const ISO_INSTANT = new RegExp(ISO_INSTANT_SOURCE);
const EPOCH_MS = new RegExp(EPOCH_MS_SOURCE);
const DAY_MS = 86_400_000;

/** Days in a month of the proleptic Gregorian calendar (the leap-year rule of ISO 8601). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to a civil date (H. Hinnant's days_from_civil), in integer arithmetic only,
 * so the PostgreSQL version can be the same steps. Valid for years 1 to 9999.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * The instant an ISO 8601 string names, or null when it names none: a date is midnight UTC, a
 * date-time without a zone is UTC, the fraction is cut to milliseconds. Year 0000, month 13,
 * Feb 30, hour 24, second 60 and zone hours above 23 are not dates.
 */
function isoInstantOf(text: string): number | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  // Absent parts (time, seconds, zone) are 0; groups 7 to 9 are text.
  const [y, mo, d, h, mi, s, , , , zh, zm] = match.slice(1).map((group) => Number(group ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [fraction = '', , sign] = match.slice(7);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  if (h > 23 || mi > 59 || s > 59 || zh > 23 || zm > 59) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const offset = (sign === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  return daysFromCivil(y, mo, d) * DAY_MS + h * 3_600_000 + mi * 60_000 + s * 1000 + millis - offset;
}

/**
 * The instant a date-time-typed field holds, in epoch milliseconds: a JSON number as is, a string
 * of 1 to 15 digits as its number, an ISO 8601 date or date-time as its instant, anything else
 * none (null). Filters and sort keys of all dialects read values so.
 */
export function strictInstantOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  if (EPOCH_MS.test(value)) return Number(value);
  return isoInstantOf(value);
}

/** The SQLite function name the dialect calls: `search_instant(json_type, value)`. */
export const SQLITE_INSTANT_FUNCTION = 'search_instant';
