import { KeptPerOwner } from './kept-per-owner.js';
import { compileSearch, type CompiledSearch, type CompileOptions } from './compile-search.js';
import type { ScoreLevel } from './score-levels.js';
import type { AbsentGrams, TermShares } from './sql-dialect.js';
import type { SearchRequest, SearchScope } from './types.js';

/** Most statements kept per statistics read (pg-common-terms.ts): a few dozen queries paged at once, a few KB of SQL each. */
const KEPT = 64;

/**
 * Stands for the cursor's id while a statement is compiled to be kept: PostgreSQL's text holds no
 * NUL character, so no value a statement binds can be this one, and the positions that hold it
 * are exactly where the cursor's id goes.
 */
const CURSOR_ID = '\u0000cursor id';

/** Stands for a listable level's kept hits (LevelStatement.hits) while a statement is compiled to be kept: found among the parameters by identity. */
const HITS: readonly string[] = [];

/** A kept statement: its SQL and parameters as compiled with CURSOR_ID and HITS, and where those stand among them. */
interface Kept {
  compiled: CompiledSearch;
  cursorAt: number[];
  hitsAt: number[];
}

/**
 * Per statistics read (commonTerms returns a new TermShares a minute, so statements compiled with
 * older shares are dropped with them): the key of a statement (keyOf) to the statement, least
 * recently used first.
 */
const kept = new KeptPerOwner<Kept>(KEPT);

/** What one level statement of a PostgreSQL levels read is. */
export interface LevelStatement {
  levels: readonly ScoreLevel[];
  need: number;
  absent: AbsentGrams | undefined;
  termShares: TermShares;
  /** The level statement made into another by the caller (run-levels.ts: checked against a guessed probe), and what that adds to the key. */
  wrap?: { key: string; wrap: (compiled: CompiledSearch) => CompiledSearch };
  /** The last level's hits after the cursor, kept for the snapshot read (pg-level-lists.ts), read instead of the level (CompileOptions.levelHits). */
  hits?: readonly string[];
}

/**
 * Everything a level statement's SQL and parameters follow from except the cursor's id: the scope,
 * the request less its cursor's id (its filter as parsed, sort, limit, fields, the cursor's score,
 * which names the level the cursor is on), and the read's levels, rows, absent grams and test
 * options. The statistics are the map the key is kept in.
 */
function keyOf(scope: SearchScope, request: SearchRequest, statement: LevelStatement, options: CompileOptions): string {
  const absent = [...(statement.absent ?? new Map<string, ReadonlySet<string>>())].map(([path, grams]) => [path, [...grams].sort()]).sort();
  return JSON.stringify([
    scope.connectorId,
    scope.entity,
    request.filter,
    request.sort,
    request.limit,
    request.fields,
    request.cursor === null ? null : request.cursor.slice(0, -1),
    statement.levels,
    statement.need,
    statement.absent === undefined ? null : absent,
    options.levelWindowRows ?? null,
    options.walkRows ?? null,
    statement.wrap?.key ?? null,
    statement.hits !== undefined,
  ]);
}

/**
 * One statement of a PostgreSQL levels read (run-levels.ts), compiled once per query and kept:
 * compiling a fuzzy level (its trigram gate, its "k of n" index queries, its levels' SQL) costs
 * node about 1 ms a search at 100,000 records (scripts/bench-search.ts, "quartrly reprot"), as
 * much as the server takes to read the page. Only what the request, the probe's absent grams and
 * the statistics decide goes in (the snapshot's data never does), so a kept statement is the one
 * the compiler would write, and the cursor's id, the one thing pages of a query differ by within
 * a level, is put in its place among the parameters, as are a listable level's kept hits. Compiled without keeping when the request
 * reads kept sort or range keys (they follow the data).
 */
export function levelStatement(scope: SearchScope, request: SearchRequest, statement: LevelStatement, options: CompileOptions): CompiledSearch {
  const { levels, need, absent, termShares, wrap, hits } = statement;
  const compileWith = (with_: SearchRequest, levelHits: readonly string[] | undefined) => {
    const read = { levels, need };
    const compiled = compileSearch(with_, 'postgres', scope, {
      ...options,
      ...(absent ? { absent } : {}),
      termShares,
      levels: read,
      ...(levelHits ? { levelHits } : {}),
    });
    return wrap ? wrap.wrap(compiled) : compiled;
  };
  if (options.sortKeys !== undefined || options.keyRange !== undefined) return compileWith(request, hits);
  const key = keyOf(scope, request, statement, options);
  let entry = kept.get(termShares, key);
  if (!entry) {
    const cursor = request.cursor === null ? null : [...request.cursor.slice(0, -1), CURSOR_ID];
    const compiled = compileWith({ ...request, cursor }, hits && HITS);
    const cursorAt = compiled.params.flatMap((value, i) => (value === CURSOR_ID ? [i] : []));
    const hitsAt = compiled.params.flatMap((value, i) => (value === HITS ? [i] : []));
    entry = { compiled, cursorAt, hitsAt };
  }
  kept.set(termShares, key, entry);
  const { compiled, cursorAt, hitsAt } = entry;
  if (cursorAt.length === 0 && hitsAt.length === 0) return compiled;
  const params = [...compiled.params];
  for (const i of cursorAt) params[i] = request.cursor?.[request.cursor.length - 1];
  for (const i of hitsAt) params[i] = hits;
  return { ...compiled, params };
}
