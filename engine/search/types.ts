/**
 * The shapes shared by the search parser, compiler, runner and evaluator. Parsing turns untrusted
 * params into these types once, so everything downstream can rely on validated field paths and
 * well-typed values.
 */

/** Declared type of a searchable field, as SPEC.md's searchable-field tables list them. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** An entity's searchable fields: top-level name -> declared type. */
export type SearchableFields = Readonly<Record<string, FieldType>>;

/** How a path's values compare and sort (money strings, timestamps with offsets): defined by the store, which keeps the discovered ones. */
import type { ValueType, ValueTypes } from '../store/index.js';

export type { ValueType, ValueTypes };

/** The SQL dialects the compiler speaks. */
export type SearchDialect = 'sqlite' | 'postgres';

/** Which records a search runs over: one entity of one connector. */
export interface SearchScope {
  connectorId: string;
  entity: string;
}

/** A JSON scalar a filter compares against. */
export type ScalarValue = string | number | boolean | null;

/**
 * A validated field path. `elements` is true when the top-level field is an array: the path then
 * names each element (or `sub` inside each element) and comparisons match when any element does.
 */
export interface FieldRef {
  /** The dotted path as the caller wrote it. */
  readonly path: string;
  readonly top: string;
  readonly sub: readonly string[];
  readonly type: FieldType;
  readonly elements: boolean;
  /** Set when the manifest types this exact path: values then compare and sort as that type. */
  readonly valueType?: ValueType;
  /** Set on a sort key whose path the manifest declares sortable: its keys are kept and indexed (sort-keys.ts). */
  readonly sortable?: true;
}

/** Comparison operators that take one scalar. */
export type ComparisonOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';
/** Text operators: they match strings and carry a relevance score. */
export type TextOp = 'like' | 'fuzzy' | 'keyword';

/** A parsed filter tree. */
export type FilterNode =
  | { readonly op: ComparisonOp; readonly field: FieldRef; readonly value: ScalarValue }
  | { readonly op: 'in'; readonly field: FieldRef; readonly values: readonly ScalarValue[] }
  | { readonly op: TextOp; readonly field: FieldRef; readonly text: string }
  | { readonly op: 'and' | 'or'; readonly nodes: readonly FilterNode[] }
  | { readonly op: 'not'; readonly node: FilterNode };

/** One `query.sort` element. */
export interface SortKey {
  readonly field: FieldRef;
  readonly direction: 'asc' | 'desc';
}

/** Values of the last row of the previous page, in the order of the query's sort key columns. */
export type CursorValues = readonly (string | number)[];

/** A validated search request, ready to compile. */
export interface SearchRequest {
  readonly filter: FilterNode | null;
  readonly sort: readonly SortKey[];
  readonly limit: number;
  readonly cursor: CursorValues | null;
  /** Dot paths to keep in `data`; null keeps every searchable field. */
  readonly fields: readonly string[] | null;
  /** Hash of filter + sort: a cursor is only accepted by the query that issued it. */
  readonly queryHash: string;
  /** The entity's searchable fields the request was validated against. */
  readonly searchable: SearchableFields;
  /** The paths whose sort keys may be kept (parseSearchParams' `sortable`): a range on one reads them (range-keys.ts). */
  readonly sortable?: ReadonlySet<string>;
}

/** One hit of the SPEC.md search result. */
export interface SearchHit {
  id: string;
  score: number;
  data: Record<string, unknown>;
}

/** The SPEC.md search result. */
export interface SearchResult {
  hits: SearchHit[];
  next_cursor: string | null;
  took_ms: number;
}
