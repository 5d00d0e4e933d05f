import type { TextNode } from './scoring-nodes.js';
import type { FieldRef } from './types.js';

/** One end of a range: the value, and whether it is kept (gte/lte) or left out (gt/lt). */
export interface Bound {
  value: string | number;
  inclusive: boolean;
}

/**
 * A range every hit must be in, read from the kept sort keys of its path (`pathId`): type rank 0
 * (numbers) or 1 (strings), then the bounds on the number or string key column.
 */
export interface KeyRange {
  pathId: number;
  field: FieldRef;
  rank: 0 | 1;
  lower?: Bound;
  upper?: Bound;
  /**
   * Every key value the range holds, when they are few (range-values.ts), or the values of a
   * required `eq` or `in` (then with no bounds): the keys of one value are in id order in the
   * index, so a page is a merge of one short walk per value.
   */
  values?: readonly (string | number)[];
  /** Which kept keys `pathId` names: a sortable path's sort keys (the default), or a path's value keys (value-key-target.ts), which may hold several values per record. */
  keys?: 'sort' | 'value';
  /** Strings compared folded (lower(str): a `like` prefix, like-prefix.ts), in the folded index of the value keys; bounds and values are folded strings. */
  folded?: boolean;
  /**
   * A `levels` plan's range (like-prefix.ts scoringPrefix): it holds every row this `like` matches,
   * not every hit, so only the levels where the `like` matches read it (plan-levels.ts).
   */
  like?: TextNode;
}
