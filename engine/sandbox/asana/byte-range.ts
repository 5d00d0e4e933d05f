/**
 * `Range: bytes=...` as S3 reads it (RFC 9110 §14): one range, or none.
 */

/** What a Range header asks of a file of known size. */
export type RangeRequest = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Resolves a Range header against `size`: `bytes=a-b` (b clamped to the last byte), `bytes=a-`,
 * `bytes=-n` (the last n bytes). No header, another unit, a malformed value or several ranges
 * mean the whole file (RFC 9110 lets servers ignore Range; S3 serves multi-range requests whole).
 * A first byte at or past the end, or `bytes=-0`, is unsatisfiable (416).
 * Why: B5 downloads support partial reads (the engine's `range_header`).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
