/**
 * Bounds on what one search request may ask for, so that hostile or careless input cannot make
 * the parser recurse deeply, the SQL grow without bound, or one page hold the whole table.
 */
export const SEARCH_LIMITS = {
  /** Default page size (SPEC.md). */
  defaultLimit: 1000,
  maxLimit: 10_000,
  /** Filter nodes in one tree, operators and leaves together. */
  maxNodes: 100,
  /** Nesting depth of the filter tree (a single comparison has depth 1). */
  maxDepth: 10,
  maxInValues: 1000,
  maxSortKeys: 5,
  maxFields: 100,
  /** Segments of one dot path. */
  maxPathSegments: 8,
  maxSegmentLength: 128,
  /** Length of a compared string or like pattern. */
  maxStringLength: 4096,
  /** Length of a fuzzy or keyword query. */
  maxTextQueryLength: 256,
  /** Distinct words of one keyword query. */
  maxKeywords: 32,
  maxCursorLength: 8192,
} as const;
