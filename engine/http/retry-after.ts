/**
 * Reads a Retry-After header, which RFC 9110 §10.2.3 allows as delay-seconds or as an HTTP-date,
 * into milliseconds from `now`. A date in the past means "now" (0). Unreadable values are ignored.
 */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  // Seconds may come with a fraction: some APIs send "2.0".
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
