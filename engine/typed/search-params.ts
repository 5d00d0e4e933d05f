/**
 * The `search` action's params and result, typed by an entity's searchable fields (a map of field
 * name -> declared type, generated from the manifest's `sync.searchable`). The grammar is DESIGN.md
 * §7's as engine/search parses it: which paths each operator and sort take is its rule, stated here
 * so that a wrong field is a compile error rather than an INVALID_PARAMS at run time.
 */

/** A value a comparison takes. Which one fits a field (and its `value_types`) is checked at run time. */
export type SearchScalar = string | number | boolean | null;

/** The names of the fields whose declared type is one of `K`. */
type FieldsOfType<F, K> = { [N in keyof F & string]: F[N] extends K ? N : never }[keyof F & string];

/** Only object and array fields have sub-fields (engine/search/field-path.ts). */
type SubPath<F> = `${FieldsOfType<F, 'object' | 'array'>}.${string}`;

/** A field a filter compares or a projection keeps: a searchable field, or a dot path into an object or array field. */
export type SearchPath<F> = (keyof F & string) | SubPath<F>;

/** Text operators read strings: string and array fields, and paths inside objects and arrays. */
type TextPath<F> = FieldsOfType<F, 'string' | 'array'> | SubPath<F>;

/** Sorting needs one value per record: scalar fields and paths inside objects, never arrays. */
type SortPath<F> = FieldsOfType<F, 'string' | 'integer' | 'number' | 'boolean'> | `${FieldsOfType<F, 'object'>}.${string}`;

/** `{ <field>: value }`: the grammar takes exactly one field per operator. */
type OnField<P extends string, V> = { [Q in P]?: V };

/** A `query.filter` node: one operator naming one field, or `and`/`or` over nodes, or `not` of one. */
export type SearchFilter<F> =
  | { eq: OnField<SearchPath<F>, SearchScalar> }
  | { neq: OnField<SearchPath<F>, SearchScalar> }
  | { gt: OnField<SearchPath<F>, SearchScalar> }
  | { gte: OnField<SearchPath<F>, SearchScalar> }
  | { lt: OnField<SearchPath<F>, SearchScalar> }
  | { lte: OnField<SearchPath<F>, SearchScalar> }
  | { in: OnField<SearchPath<F>, SearchScalar[]> }
  | { like: OnField<TextPath<F>, string> }
  | { fuzzy: OnField<TextPath<F>, string> }
  | { keyword: OnField<TextPath<F>, string> }
  | { and: SearchFilter<F>[] }
  | { or: SearchFilter<F>[] }
  | { not: SearchFilter<F> };

/**
 * The params of `search` (SPEC.md "Common search action parameters"). A type rather than an
 * interface, so typed params also pass where untyped ones (`Record<string, unknown>`) are taken.
 */
export type SearchParams<F> = {
  query: {
    filter?: SearchFilter<F> | null;
    /** `[{ <field>: 'asc' | 'desc' }]`; default: score, then id. */
    sort?: OnField<SortPath<F>, 'asc' | 'desc'>[] | null;
  };
  /** 1 to 10,000; default 1000. */
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string | null;
  /** Dot paths to keep in each hit's `data`; default every searchable field. */
  fields?: SearchPath<F>[] | null;
};

/** One hit: the record's id, its relevance, and its searchable fields. */
export interface TypedSearchHit<D> {
  id: string;
  score: number;
  data: D;
}

/** What `search` returns (SPEC.md "Search result"). */
export interface TypedSearchResult<D> {
  hits: TypedSearchHit<D>[];
  next_cursor: string | null;
  took_ms: number;
}
