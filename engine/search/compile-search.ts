import { keySlots, type KeySlot } from './cursor.js';
import { keyedSql } from './plan-keyed.js';
import { levelsSql } from './plan-levels.js';
import { rankedSql } from './plan-ranked.js';
import type { KeyRange } from './key-range.js';
import type { KeptSort } from './sort-key-target.js';
import type { IndexLists } from './sqlite-index-lists.js';
import { postgresDialect } from './postgres-dialect.js';
import { scoringNodes } from './scoring-nodes.js';
import { planSearch } from './search-plan.js';
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
}

const DIALECTS: Record<SearchDialect, SqlDialect> = { sqlite: sqliteDialect, postgres: postgresDialect };

/**
 * Turns a validated request into one parameterized SELECT for the dialect, restricted to one
 * connector's entity. Values and field paths are always bound parameters; only SQL the compiler
 * writes itself reaches the text. Order: explicit sort keys (then id), or score desc then id; the
 * plan (search-plan.ts) decides how that order is produced cheaply. `sortKeys`: the kept keys of
 * the first sort key or the first two (sort-keys.ts), read in index order instead of sorting.
 * `keyRange`: a required range an id-ordered request reads from its path's kept keys (range-keys.ts).
 * `lists` (SQLite): text index candidates read ahead; queries not in it are noted there as wanted.
 * `walkRows` (internal, tests): PostgreSQL's walk lengths in id order (plan-walk.ts).
 */
export function compileSearch(
  request: SearchRequest,
  dialect: SearchDialect,
  scope: SearchScope,
  sortKeys?: KeptSort,
  keyRange?: KeyRange,
  lists?: IndexLists,
  walkRows?: WalkRows,
): CompiledSearch {
  const ctx: CompileContext = {
    d: DIALECTS[dialect],
    params: new SqlParams(),
    scope,
    ...(sortKeys === undefined ? {} : { sortKeys }),
    ...(keyRange === undefined ? {} : { keyRange }),
    ...(lists === undefined ? {} : { lists }),
    ...(request.fields === null ? {} : { fields: request.fields }),
    ...(walkRows === undefined ? {} : { walkRows }),
  };
  const slots = keySlots(request.sort, scoringNodes(request.filter).length > 0);
  const plan = planSearch(request);
  const sql =
    plan.kind === 'keyed'
      ? keyedSql(request, plan.constantScore, slots, ctx)
      : plan.kind === 'levels'
        ? levelsSql(request, plan.scoring, plan.levels, ctx)
        : rankedSql(request, plan.scoring, plan.required, ctx);
  return { ...ctx.params.finish(sql, dialect), slots };
}
