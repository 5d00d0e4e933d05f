import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { ensurePostgresSortKeys, findPostgresSortKeys } from './sort-keys-postgres.js';
import { ensureSqliteSortKeys, findSqliteSortKeys } from './sort-keys-sqlite.js';
import { ensurePostgresSortPair, findPostgresSortPair } from './sort-pairs-postgres.js';
import { ensureSqliteSortPair, findSqliteSortPair } from './sort-pairs-sqlite.js';
import { pairKey, sortKeyTarget, sortPairTarget, targetKey, type KeptSort, type SortKeyTarget, type SortPairTarget } from './sort-key-target.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';
import { valueTargetKey, type ValueKeyTarget } from './value-key-target.js';
import { ensurePostgresValueKeys, findPostgresValueKeys } from './value-keys-postgres.js';
import { ensureSqliteValueKeys, findSqliteValueKeys } from './value-keys-sqlite.js';

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

async function lookUpPair(db: Database, dialect: SearchDialect, target: SortPairTarget, ensure: boolean): Promise<number | undefined> {
  if (dialect === 'sqlite') {
    const sqlite = db as BetterSqlite3.Database;
    return ensure ? ensureSqliteSortPair(sqlite, target) : findSqliteSortPair(sqlite, target);
  }
  const canEnsure = ensure && 'totalCount' in db;
  const pool = db as pg.Pool | pg.PoolClient | pg.Client;
  return canEnsure ? ensurePostgresSortPair(pool as pg.Pool, target) : findPostgresSortPair(pool, target);
}

/** How long a connection believes a lookup that found no kept keys (none registered, or no room for more). */
const NONE_KEPT_MS = 10_000;
/** The most such beliefs a connection holds (the oldest go first). */
const NONE_KEPT_MOST = 256;
/** Lookups that found nothing, per connection, with the time each belief ends. */
const none = new WeakMap<object, Map<string, number>>();

/**
 * A registered id, cached per connection once found, else `look`. A lookup that finds nothing is
 * believed for NONE_KEPT_MS (apart for lookups that may start keys): an equality on a path with no
 * kept keys would otherwise ask the registry on every search (two queries on PostgreSQL), and a sort
 * past PAIRS_MOST would take the registration lock every time. A belief that went stale costs no
 * exactness: the search reads the records as it would without keys.
 */
async function cached(db: Database, key: string, look: () => Promise<number | undefined>, ensure: boolean): Promise<number | undefined> {
  let ids = known.get(db);
  if (!ids) known.set(db, (ids = new Map()));
  const found = ids.get(key);
  if (found !== undefined) return found;
  let nones = none.get(db);
  if (!nones) none.set(db, (nones = new Map()));
  const noneKey = `${ensure}${key}`;
  const until = nones.get(noneKey);
  if (until !== undefined && until > Date.now()) return undefined;
  const id = await look();
  if (id !== undefined) ids.set(key, id);
  else {
    nones.delete(noneKey);
    nones.set(noneKey, Date.now() + NONE_KEPT_MS);
    if (nones.size > NONE_KEPT_MOST) nones.delete(nones.keys().next().value as string);
  }
  return id;
}

/**
 * The kept keys that serve a sorted request: the pair of its first two sort keys when both paths
 * are sortable (sort-key-target.ts sortPairTarget), else its first sort key's when that path is,
 * else undefined (the request sorts otherwise). With `ensure`, keys are started on first use: the
 * first sorted search fills them from the records present (once, on a connection that may write),
 * and writers keep them from then on (triggers), so later searches seek instead of sorting the
 * whole copy. A pair the entity cannot keep (PAIRS_MOST) falls back to the first path's keys.
 */
export async function sortKeysFor(
  db: Database,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  ensure: boolean,
): Promise<KeptSort | undefined> {
  const pair = sortPairTarget(scope, request);
  if (pair) {
    const id = await cached(db, pairKey(pair), () => lookUpPair(db, dialect, pair, ensure), ensure);
    if (id !== undefined) return { id, keys: 2 };
  }
  const target = sortKeyTarget(scope, request);
  const id = target && (await keptKeysFor(db, dialect, target, ensure));
  return id === undefined ? undefined : { id, keys: 1 };
}

/**
 * The registered id of a target's kept keys (cached per connection once found), started on
 * first use with `ensure`; shared by sorts and by ranges that read the keys (range-keys.ts).
 */
export async function keptKeysFor(db: Database, dialect: SearchDialect, target: SortKeyTarget, ensure: boolean): Promise<number | undefined> {
  return cached(db, targetKey(target), () => lookUp(db, dialect, target, ensure), ensure);
}

async function lookUpValues(db: Database, dialect: SearchDialect, target: ValueKeyTarget, ensure: boolean): Promise<number | undefined> {
  if (dialect === 'sqlite') {
    const sqlite = db as BetterSqlite3.Database;
    return ensure ? ensureSqliteValueKeys(sqlite, target) : findSqliteValueKeys(sqlite, target);
  }
  const canEnsure = ensure && 'totalCount' in db;
  const pool = db as pg.Pool | pg.PoolClient | pg.Client;
  return canEnsure ? ensurePostgresValueKeys(pool as pg.Pool, target) : findPostgresValueKeys(pool, target);
}

/**
 * The registered id of a path's kept value keys (value-key-target.ts; cached per connection once
 * found), started on first use with `ensure`: undefined when none are kept, or the entity keeps
 * VALUE_PATHS_MOST paths already.
 */
export async function keptValuesFor(db: Database, dialect: SearchDialect, target: ValueKeyTarget, ensure: boolean): Promise<number | undefined> {
  return cached(db, valueTargetKey(target), () => lookUpValues(db, dialect, target, ensure), ensure);
}
