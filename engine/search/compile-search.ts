import { asksTextIndex } from './compile-filter.js';
import { keySlots, type KeySlot } from './cursor.js';
import { keyedSql } from './plan-keyed.js';
import { levelHitsSql } from './plan-level-hits.js';
import { levelFilter, levelIndex, levelListable, levelsSql } from './plan-levels.js';
import { rankedSql } from './plan-ranked.js';
import type { KeyRange } from './key-range.js';
import type { KeptSort } from './sort-key-target.js';
import type { AbsentGrams, TermShares } from './sql-dialect.js';
import type { IndexLists } from './sqlite-index-lists.js';
import { postgresDialect } from './postgres-dialect.js';
import type { ScoreLevel } from './score-levels.js';
import { scoringNodes } from './scoring-nodes.js';
import { planSearch, type SearchPlan } from './search-plan.js';
import type { CompileContext, SqlDialect, WalkRows } from './sql-dialect.js';
import { SqlParams } from './sql-params.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';

/**
 * Compiled SQL. Columns: `id`, `data` (the record, or with `fields` the JSON text of the members they reach), `score`, then `k0..kN` (the keyset of the row, in `slots`
 * order: the next cursor is built from the last row's). One row more than `limit` is asked for, so
 * the runner knows whether a next page exists.
 */
export interface CompiledSearch {
  sql: string;
  params: unknown[];
  slots: KeySlot[];
  /**
   * PostgreSQL: the statement's own shape fixes how it reads, so one plan made without its values
   * (a generic plan) reads as well as one made with them, and the statement may be kept named on
   * its connection and planned once (postgres-statements.ts). True for the id-ordered reads of a
   * filter that asks a text index (plan-window.ts, plan-walk.ts): windows and walks in id order
   * fenced from the planner, the index asked only past them. Not for a read the planner shapes
   * from the values (an equality alone is an index lookup for a rare value and a walk in id order
   * for a common one, from one SQL text). True too for a read value by value through kept keys
   * (plan-key-range.ts, KeyRange.values): a walk in id order per value, merged, each joined to its
   * record by primary key; the values are parameters and the number of them is in the text, so the
   * plan made without them is that plan (the bench's range, `in` and object path shapes at 100,000
   * records: the same plan, and 0.3 to 1 ms of planning a search saved). Not a range read from its
   * keys as one walk: there the generic plan of a `like` prefix read 27 ms against 2.4.
   */
  keepPlan: boolean;
  /** PostgreSQL: the statement reads one score level whose hits may be kept in id order per snapshot (plan-levels.ts levelListable, pg-level-lists.ts). */
  listable?: boolean;
}

const DIALECTS: Record<SearchDialect, SqlDialect> = { sqlite: sqliteDialect, postgres: postgresDialect };

/** What a search knows before it is compiled (see compileSearch). */
export interface CompileOptions {
  /** The kept keys of the first sort key or the first two (sort-keys.ts), read in index order instead of sorting. */
  sortKeys?: KeptSort;
  /** A required range an id-ordered request reads from its path's kept keys (range-keys.ts). */
  keyRange?: KeyRange;
  /** SQLite: text index candidates read ahead; queries not in it are noted there as wanted. */
  lists?: IndexLists;
  /** Fuzzy trigrams no record holds (gram-presence.ts), found in the snapshot the statement reads. */
  absent?: AbsentGrams;
  /** PostgreSQL: the shares of rows holding the common index terms (pg-common-terms.ts). */
  termShares?: TermShares;
  /** Internal (tests): the rows a score level reads in id order before it asks the index (0: none where it asks the index). */
  levelWindowRows?: number | undefined;
  /** A `levels` plan: the levels this statement reads (default all) and the rows it stops at (default limit + 1). */
  levels?: { levels: readonly ScoreLevel[]; need: number };
  /** Internal (tests): PostgreSQL's walk lengths in id order (plan-walk.ts) instead of those it works out. */
  walkRows?: WalkRows | undefined;
  /** PostgreSQL: the hits after the cursor of the statement's last level, when listable (plan-levels.ts levelListable), kept for the snapshot it reads (pg-level-lists.ts). */
  levelHits?: readonly string[];
}

/**
 * Turns a validated request into one parameterized SELECT for the dialect, restricted to one
 * connector's entity. Values and field paths are always bound parameters; only SQL the compiler
 * writes itself reaches the text. Order: explicit sort keys (then id), or score desc then id; the
 * plan (search-plan.ts) decides how that order is produced cheaply.
 */
export function compileSearch(request: SearchRequest, dialect: SearchDialect, scope: SearchScope, options: CompileOptions = {}): CompiledSearch {
  const ctx = compileContext(request, dialect, scope, options);
  const slots = keySlots(request.sort, scoringNodes(request.filter).length > 0);
  const plan = planSearch(request, options.absent);
  const sql =
    plan.kind === 'keyed'
      ? keyedSql(request, plan.constantScore, slots, ctx)
      : plan.kind === 'levels'
        ? levelsSql(request, plan.scoring, options.levels?.levels ?? plan.levels, options.levels?.need ?? request.limit + 1, ctx)
        : rankedSql(request, plan.scoring, plan.required, ctx);
  const keepPlan = dialect === 'postgres' && (readsInIdOrder(request, plan, ctx) || readsValueByValue(request, plan, ctx));
  const [one, ...more] = options.levels?.levels ?? [];
  const listable = plan.kind === 'levels' && one !== undefined && more.length === 0 && levelListable(request, plan.scoring, one, ctx);
  return { ...ctx.params.finish(sql, dialect), slots, keepPlan, ...(listable ? { listable } : {}) };
}

/**
 * The statement that reads the hits of a listable level (CompiledSearch.listable) in id order, for
 * pg-level-lists.ts to keep for the snapshot it reads: one row of the candidates read, the most
 * worth reading, and the hits' ids (plan-level-hits.ts levelHitsSql). `options.levels` names the
 * one level and the rows the page needs of it; `most` (tests): the most candidates read instead of those worth reading.
 */
export function compileLevelHits(request: SearchRequest, scope: SearchScope, options: CompileOptions, most?: number): { sql: string; params: unknown[] } {
  const ctx = compileContext(request, 'postgres', scope, options);
  const plan = planSearch(request, options.absent);
  const level = options.levels?.levels[0];
  const filter = level && request.filter && levelFilter(request.filter, plan.kind === 'levels' ? plan.scoring : [], level);
  const index = level && plan.kind === 'levels' ? levelIndex(level, plan.scoring, ctx) : undefined;
  if (!filter || !index || !options.levels) throw new TypeError('level hits are read for one listable level');
  return ctx.params.finish(levelHitsSql(ctx, filter, index.narrow, options.levels.need, most), 'postgres');
}

/** What the statement's SQL is written with: the dialect, fresh parameters, the scope and what the options know. */
function compileContext(request: SearchRequest, dialect: SearchDialect, scope: SearchScope, options: CompileOptions): CompileContext {
  const { sortKeys, keyRange, lists, absent, termShares, levelWindowRows, walkRows, levelHits } = options;
  return {
    d: DIALECTS[dialect],
    params: new SqlParams(),
    scope,
    ...(sortKeys === undefined ? {} : { sortKeys }),
    ...(keyRange === undefined ? {} : { keyRange }),
    ...(lists === undefined ? {} : { lists }),
    ...(request.fields === null ? {} : { fields: request.fields }),
    ...(walkRows === undefined ? {} : { walkRows }),
    ...(absent === undefined ? {} : { absent }),
    ...(termShares === undefined ? {} : { termShares }),
    ...(levelWindowRows === undefined ? {} : { levelWindowRows }),
    ...(levelHits === undefined ? {} : { levelHits }),
  };
}

/** Whether the plan reads through the id-ordered window or walk of a filter that asks a text index (CompiledSearch.keepPlan). */
function readsInIdOrder(request: SearchRequest, plan: SearchPlan, ctx: CompileContext): boolean {
  if (!asksTextIndex(request.filter, ctx.d)) return false;
  return plan.kind === 'levels' || (plan.kind === 'keyed' && request.sort.length === 0 && ctx.keyRange === undefined);
}

/** Whether an id-ordered keyed plan reads its required values' kept keys value by value (CompiledSearch.keepPlan). */
function readsValueByValue(request: SearchRequest, plan: SearchPlan, ctx: CompileContext): boolean {
  return plan.kind === 'keyed' && request.sort.length === 0 && ctx.keyRange?.values !== undefined;
}
