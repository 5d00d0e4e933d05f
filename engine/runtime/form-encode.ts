/** Text the form encoding leaves as it is: most names and values (numbers, ids, cursors). */
const FORM_SAFE = /^[\w.*-]*$/;
/** What encodeURIComponent leaves as it is and the form encoding does not, and the space it writes as %20. */
const NOT_FORM = /[!'()~]|%20/g;

function formEscape(match: string): string {
  return match === '%20' ? '+' : `%${match.charCodeAt(0).toString(16).toUpperCase()}`;
}

/**
 * A query name or value as URLSearchParams serializes it (the WHATWG
 * application/x-www-form-urlencoded serializer: `*-._`, digits and ASCII letters as they are,
 * a space as `+`, every other UTF-8 byte as %XX), built from encodeURIComponent, which differs
 * from it only in `!'()~` and the space. Why not URLSearchParams on the URL: appending to
 * `url.searchParams` makes the URL serialize and parse itself again on the next read of its
 * query, once per request. A lone surrogate (which encodeURIComponent refuses) becomes U+FFFD,
 * as URLSearchParams makes it.
 */
export function formEncoded(text: string): string {
  if (FORM_SAFE.test(text)) return text;
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return encoded.replace(NOT_FORM, formEscape);
}
