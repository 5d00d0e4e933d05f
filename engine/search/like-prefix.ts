import { andNodes } from './and-nodes.js';
import type { KeyRange } from './key-range.js';
import { likePieces } from './text-match.js';
import { valueKeysServe } from './value-key-target.js';
import type { SearchRequest } from './types.js';

/**
 * The least string past every string that starts with `prefix`, in code point order (the byte
 * order of UTF-8, which SQLite's BINARY and PostgreSQL's "C" collation compare by): the prefix with
 * its last code point raised by one, skipping the surrogate block; undefined when no string is
 * past them (every code point the largest).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return undefined;
}

/**
 * The folded prefix range a request's hits must all be in: a `like` joined to the root by `and`
 * alone, on an untyped path inside an object (one value per record, so its value keys hold at most
 * one key per record: value-key-target.ts), whose pattern starts with a literal piece. Every value
 * the `like` matches folds (ASCII letters only, as lower() under SQLite and PostgreSQL's "C"
 * collation, the folding the `like` test itself uses) to a string starting with that piece, hence
 * lies in [piece, prefixEnd(piece)) of the keys' folded strings; the filter, tested after, decides.
 * Undefined when there is none, or the piece holds a surrogate or NUL (no such text binds as such).
 */
export function requiredPrefix(request: SearchRequest): Omit<KeyRange, 'pathId'> | undefined {
  const nodes = andNodes(request.filter);
  for (const node of nodes) {
    if (node.op !== 'like' || !valueKeysServe(node.field) || node.field.elements) continue;
    const [first] = likePieces(node.text);
    if (!first?.start || /[\uD800-\uDFFF\0]/.test(first.text)) continue;
    const end = prefixEnd(first.text);
    return {
      field: node.field,
      rank: 1,
      lower: { value: first.text, inclusive: true },
      ...(end === undefined ? {} : { upper: { value: end, inclusive: false } }),
      keys: 'value',
      folded: true,
    };
  }
  return undefined;
}
