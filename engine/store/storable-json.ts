/**
 * The escapes JSON.stringify writes for what a store cannot keep (see storable-text.ts): U+0000 as
 * `\u0000` and a lone surrogate as `\udXXX` (lower-case hex, ECMA-262 QuoteJSONString; a paired
 * surrogate is written as itself). The even run of backslashes before an escape is kept, so an
 * escaped backslash followed by the letters `u0000` (`\\u0000` in the text) is left alone.
 */
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

/**
 * `value` as JSON text with U+0000 and lone surrogates, in strings and keys alike, replaced by
 * U+FFFD (written `\ufffd`). Why: PostgreSQL refuses them in jsonb ("unsupported Unicode escape
 * sequence") while SQLite would keep them, so both stores store the replacement instead, and a
 * batch never fails on one upstream record. Why on the text: one JSON.stringify per record and a
 * native scan of its output, instead of walking every record's values first.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\u') ? json.replace(UNSTORABLE_ESCAPE, '$1\\ufffd') : json;
}
