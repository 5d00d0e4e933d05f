import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { ensurePostgresSortKeys, findPostgresSortKeys } from './sort-keys-postgres.js';
import { ensureSqliteSortKeys, findSqliteSortKeys } from './sort-keys-sqlite.js';
import { sortKeyTarget, targetKey, type SortKeyTarget } from './sort-key-target.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';

type Database = BetterSqlite3.Database | pg.Pool | pg.PoolClient | pg.Client;

/** Registered path ids per connection: a registration is never undone (its keys go with their records), so a found id stays right. */
const known = new WeakMap<object, Map<string, number>>();

async function lookUp(db: Database, dialect: SearchDialect, target: SortKeyTarget, ensure: boolean): Promise<number | undefined> {
  if (dialect === 'sqlite') {
    const sqlite = db as BetterSqlite3.Database;
    return ensure ? ensureSqliteSortKeys(sqlite, target) : findSqliteSortKeys(sqlite, target);
  }
  // A registration needs a transaction of its own, hence a pool; a lone client only looks.
  const canEnsure = ensure && 'totalCount' in db;
  const pool = db as pg.Pool | pg.PoolClient | pg.Client;
  return canEnsure ? ensurePostgresSortKeys(pool as pg.Pool, target) : findPostgresSortKeys(pool, target);
}

/**
 * The registered id of the kept sort keys that serve a request (its first sort key, when the
 * manifest declares that path sortable), or undefined when the request sorts otherwise or none
 * are kept. With `ensure`, keys are started on first use: the first sorted search of a path fills
 * them from the records present (once, on a connection that may write), and writers keep them
 * from then on (triggers), so later searches seek instead of sorting the whole copy.
 */
export async function sortKeysFor(
  db: Database,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  ensure: boolean,
): Promise<number | undefined> {
  const target = sortKeyTarget(scope, request);
  return target ? keptKeysFor(db, dialect, target, ensure) : undefined;
}

/**
 * The registered id of a target's kept keys (cached per connection once found), started on
 * first use with `ensure`; shared by sorts and by ranges that read the keys (range-keys.ts).
 */
export async function keptKeysFor(db: Database, dialect: SearchDialect, target: SortKeyTarget, ensure: boolean): Promise<number | undefined> {
  let ids = known.get(db);
  if (!ids) known.set(db, (ids = new Map()));
  const key = targetKey(target);
  const cached = ids.get(key);
  if (cached !== undefined) return cached;
  const id = await lookUp(db, dialect, target, ensure);
  if (id !== undefined) ids.set(key, id);
  return id;
}
