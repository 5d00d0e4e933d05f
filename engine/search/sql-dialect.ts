import type { IndexLists } from './sqlite-index-lists.js';
import type { IdOrderedList } from './sqlite-level-lists.js';
import type { KeyRange } from './key-range.js';
import type { KeptSort } from './sort-key-target.js';
import type { IndexQuery } from './index-query.js';
import type { SqlParams } from './sql-params.js';
import type { TextNode } from './scoring-nodes.js';
import type { FieldRef, ScalarValue, SearchDialect, SearchScope } from './types.js';

/**
 * The longest `in` list that asks the index, one probe per value. A longer list is tested on each
 * of the entity's rows with one hashed lookup instead: measured over 20,000 records, 1,000 probes
 * cost 0.5 to 4 s (SQLite FTS5 trigrams shared by the values; PostgreSQL rechecking every
 * candidate against every value), the scan 8 to 40 ms. 8 is also where PostgreSQL starts hashing
 * `= ANY` lists (MIN_ARRAY_SIZE_FOR_HASHED_SAOP is 9).
 */
export const INDEXED_IN_VALUES = 8;

/** A comparison leaf as the dialects see it (`neq` and `in` are built from `eq` by the compiler). */
export type LeafOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * The fuzzy trigrams no record of the scope holds at a field, by the field's index path
 * (field-path.ts indexPath), found by gram-presence.ts. A gram found here counts for no record, so no record's fuzzy count
 * can pass the number of the query's other grams: the score levels above that are empty
 * (score-levels.ts), and the index is asked only for the grams that occur (text-sql.ts).
 */
export type AbsentGrams = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The share of the record table's rows that hold each common text index term, from the
 * database's statistics (PostgreSQL: pg-common-terms.ts); a term not listed is held by at most
 * `rest` of them (the least share listed; 1 before the table's first ANALYZE).
 */
export interface TermShares {
  readonly shares: ReadonlyMap<string, number>;
  readonly rest: number;
}

/** What one SQL statement is being written for: its dialect, its bound parameters, its scope. */
export interface CompileContext {
  readonly d: SqlDialect;
  readonly params: SqlParams;
  readonly scope: SearchScope;
  /** Rows are read in id order here: index filters should test rows, not produce them (see plan-window.ts). */
  readonly probe?: boolean;
  /**
   * The rows read are narrowed by an index already: the filter's bound candidates
   * (bound-candidates.ts), or the kept keys of a range every hit is in (plan-key-range.ts). An
   * index filter adds nothing to its exact test there but the cost of its candidates.
   */
  readonly amongCandidates?: boolean;
  /**
   * Under a `not`: index prefilters are left out. An index accepts a superset of what the exact
   * test accepts, so NOT (index AND exact) is NOT exact; asking the index there narrows nothing
   * and costs a candidate list.
   */
  readonly negated?: boolean;
  /** The kept keys of the first sort key, or of the first two, when there are (see sort-keys.ts). */
  readonly sortKeys?: KeptSort;
  /** SQLite: the search's text index candidates read ahead, and those still wanted (sqlite-index-lists.ts). */
  readonly lists?: IndexLists;
  /** A range every hit is in whose kept keys an id-ordered read walks instead of the records (range-keys.ts). */
  readonly keyRange?: KeyRange;
  /** The request's `fields`: the statement's `data` then holds only the top-level members they start with (projection-sql.ts). */
  readonly fields?: readonly string[];
  /** Internal (tests): the lengths of PostgreSQL's walks in id order (plan-walk.ts) instead of those it works out. */
  readonly walkRows?: WalkRows;
  /** Fuzzy trigrams no record holds at a field (gram-presence.ts): the index is not asked for them. */
  readonly absent?: AbsentGrams;
  /** PostgreSQL: how many rows hold the common index terms (pg-common-terms.ts), which decides whether a score level reads a window first (plan-levels.ts). */
  readonly termShares?: TermShares;
  /** Internal (tests): the rows a score level reads in id order before it asks the index (plan-levels.ts). */
  readonly levelWindowRows?: number;
  /** PostgreSQL: the hits after the cursor of a statement's last level, when listable, kept for the snapshot it reads (pg-level-lists.ts), which stand for its read. */
  readonly levelHits?: readonly string[];
}

/** Rows the first walk tests, and the most rows the walk may go on for after it (plan-walk.ts). */
export interface WalkRows {
  readonly first?: number;
  readonly budget?: number;
}

/** Groups of fuzzy trigrams, each of which a value must hold one of to be counted (see SqlDialect.textCount). */
export type FuzzyGate = readonly (readonly string[])[];

/** Which text index a query was built for: whole words (`keyword`) or literal text (`fuzzy`, `like`, equality). */
export type IndexSpace = 'words' | 'text';

/**
 * What differs between SQLite and PostgreSQL: how a JSON value at a path is reached and compared,
 * how text relevance is counted, how the text index is asked, how sort keys are typed. The
 * compiler owns the rest (the tree, the plan, the keyset, ordering). Every predicate returned is
 * never NULL, so `NOT` and keyset logic stay two-valued. The record row is aliased `r`.
 */
export interface SqlDialect {
  readonly name: SearchDialect;
  /** The record table. */
  readonly table: string;
  /** The column that names a row for the final lookup that fetches `data` (the plan sorts without it). */
  readonly rowRef: string;
  /** `FROM` clause continuation that looks up, for each planned row `q` (carrying `rowRef` as `q.ref`), its record row as `r`. */
  lookupRow(ctx: CompileContext): string;
  /** `eq`/range comparison of the value(s) at `field` with a non-null scalar. */
  compare(field: FieldRef, op: LeafOp, value: Exclude<ScalarValue, null>, ctx: CompileContext): string;
  /**
   * `eq` with any of the values (an `in` list), true exactly when some `compare(field, 'eq', value)`
   * is. The values are bound as one array, so the SQL stays the same size for 1 or 1,000 values
   * (a chain of 1,000 ORs passes SQLite's expression depth limit of 1,000). Lists longer than
   * INDEXED_IN_VALUES are meant to be tested row by row, not through the index.
   */
  anyEqual(field: FieldRef, values: ReadonlyArray<Exclude<ScalarValue, null>>, ctx: CompileContext): string;
  /** The field is missing or JSON null (never for array elements). */
  isNull(field: FieldRef, ctx: CompileContext): string;
  /**
   * The exact relevance of a text node as an integer count, never NULL: `like` 1 or 0 (some value
   * matches), `fuzzy` the query trigrams found in the best value, `keyword` the query words found in
   * any value. The compiler turns counts into matches and scores. With a fuzzy `gate`, a value
   * counts only if it holds some trigram of each group, and 0 otherwise: cheaper where most values
   * fail the gate, and exact wherever the gate holds for every value of the counts asked about
   * (fuzzy-gate.ts).
   */
  textCount(node: TextNode, ctx: CompileContext, gate?: FuzzyGate): string;
  /** Whether a `like` matches (textCount >= 1, never NULL), when the dialect has a cheaper test than its count. */
  likeMatch?(node: TextNode, ctx: CompileContext): string;
  /**
   * A test cheaper than the index's that every row whose count of `node` reaches `count` passes,
   * for rows read in id order (ctx.probe), when the dialect has one: PostgreSQL's keyword words as
   * substrings of the value's text (postgresDialect.textGate). Undefined: the index test stays.
   */
  textGate?(node: TextNode, count: number, ctx: CompileContext): string | undefined;
  /** Index query for "the field holds this keyword word". */
  indexWord(field: FieldRef, word: string): IndexQuery;
  /**
   * Index query for "the field holds this fuzzy trigram" (a trigram of the space-padded, folded
   * value). `pairs`: a trigram across a space may be asked as its word pair where the index has
   * them (PostgreSQL), for a query that needs every trigram; else it may stay `true`.
   */
  indexGram(field: FieldRef, gram: string, pairs?: boolean): IndexQuery;
  /** Index query for "the field holds this folded text", which may touch the value's start and/or end. */
  indexText(field: FieldRef, text: string, start: boolean, end: boolean): IndexQuery;
  /** SQL test for rows the index says may satisfy `query` at `field` (a superset of the exact matches). */
  indexFilter(field: FieldRef, space: IndexSpace, query: IndexQuery, ctx: CompileContext): string;
  /** The candidates of an index query when they are bound as a list (SQLite: sqlite-index-lists.ts), else null. */
  boundList?(field: FieldRef, space: IndexSpace, query: IndexQuery, ctx: CompileContext): readonly number[] | null;
  /**
   * The candidates of a loose score level's index query in id order, kept per data version
   * (SQLite: sqlite-level-lists.ts), or undefined; with `readFor` (the rows a page needs), a query
   * not known yet is noted to be read for the next compile.
   */
  levelList?(field: FieldRef, space: IndexSpace, query: IndexQuery, ctx: CompileContext, readFor?: number): IdOrderedList | undefined;
  /**
   * A statement-level SQL boolean: whether the index says some row it holds may satisfy `query` at
   * `field` (false only when none can), found with one index lookup that stops at the first row.
   */
  indexMayHold(field: FieldRef, space: IndexSpace, query: IndexQuery, ctx: CompileContext): string;
  /** A statement-level SQL boolean: whether the text index holds every row of the scope (indexMayHold speaks for them all). */
  indexHoldsEveryRow(ctx: CompileContext): string;
  /** Whether string equality needs an index prefilter (false when equality is indexed already). */
  readonly prefiltersEquality: boolean;
  /** [type rank, number, string] sort key columns of a single-valued field. */
  sortKey(field: FieldRef, ctx: CompileContext): [string, string, string];
  /** A bound cursor value or literal score, cast for comparison with a key column of that slot. */
  keyParam(slot: 'rank' | 'number' | 'string' | 'score' | 'id', value: string | number, ctx: CompileContext): string;
  /** The expression a key column is compared and ordered by (adds collation where needed). */
  keyColumn(slot: 'rank' | 'number' | 'string' | 'score' | 'id', column: string): string;
  /** `count * 1.0 / of` as a float, in the dialect's types. */
  share(count: string, of: number): string;
  /** The column of the kept sort keys `s` that names its record as `rowRef` does. */
  readonly sortKeysRef: string;
  /** `FROM` clause continuation that joins, for each kept sort key row `s`, its record row as `r`. */
  sortKeysRecord(ctx: CompileContext): string;
  /** The column that names a row's tuple within one statement (SQLite's rowid, PostgreSQL's ctid), for a row `r`. */
  readonly tupleId: string;
  /** `FROM` clause continuation that looks up, for each planned candidate `n` (carrying tupleId as `n.tid`), its record row as `r`. */
  candidateRow(ctx: CompileContext): string;
  /** Whether an index query's candidates are known already and few (SQLite's read-ahead lists), so reading them costs their count. */
  indexListed(field: FieldRef, space: IndexSpace, query: IndexQuery, ctx: CompileContext): boolean;
  /** Ends a subquery so the planner keeps it as written (computes its columns once, filters after). */
  readonly fence: string;
  /** Whether an id-ordered window is read as a subquery of the primary key, then filtered (PostgreSQL: plan-window.ts), and a keyed read may walk first (plan-walk.ts). */
  readonly windowAsSubquery: boolean;
}
