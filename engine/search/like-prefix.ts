import { andNodes } from './and-nodes.js';
import type { KeyRange } from './key-range.js';
import { scoringNodes, type TextNode } from './scoring-nodes.js';
import { likePieces } from './text-match.js';
import type { FilterNode, SearchRequest } from './types.js';

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
 * The folded prefix range of a `like` on a single-valued path (top-level or inside an object, not
 * through an array: its value keys hold at most one key per record, value-key-target.ts) whose
 * pattern starts with a literal piece. Every value the `like` matches is a string (no other JSON
 * type matches a `like`), and folds (ASCII letters only, as lower() under SQLite and PostgreSQL's
 * "C" collation, the folding the `like` test itself uses) to a string starting with that piece,
 * hence lies in [piece, prefixEnd(piece)) of the keys' folded strings; the filter, tested after,
 * decides. Undefined when there is none, or the piece holds a surrogate or NUL (no such text binds
 * as such).
 */
function prefixRange(node: FilterNode): Omit<KeyRange, 'pathId'> | undefined {
  if (node.op !== 'like' || node.field.elements) return undefined;
  const [first] = likePieces(node.text);
  if (!first?.start || /[\uD800-\uDFFF\0]/.test(first.text)) return undefined;
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

/** The folded prefix range (prefixRange) of the first `like` joined to the root by `and` alone that has one: every hit is in it. */
export function requiredPrefix(request: SearchRequest): Omit<KeyRange, 'pathId'> | undefined {
  for (const node of andNodes(request.filter)) {
    const range = prefixRange(node);
    if (range) return range;
  }
  return undefined;
}

/**
 * The folded prefix range (prefixRange) of the first scoring `like` that has one, with that `like`
 * (KeyRange.like): not every hit is in it, but every hit of a score level where the `like` matches
 * is, and a `levels` plan reads those levels from it on SQLite (plan-levels.ts, range-keys.ts). The deep nest of
 * scripts/bench-search.ts, `or` of two branches, one a `like 'launch%'`: its best level walked
 * about 3,000 records in id order for a page at 100,000 records.
 */
export function scoringPrefix(request: SearchRequest): Omit<KeyRange, 'pathId'> | undefined {
  for (const node of scoringNodes(request.filter)) {
    const range = prefixRange(node);
    if (range) return { ...range, like: node as TextNode };
  }
  return undefined;
}
