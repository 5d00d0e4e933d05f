import type pg from 'pg';
import { checkIn, checkOut } from '../store/index.js';
import { queryKept } from './postgres-statements.js';

/** Connections whose session already has JIT compilation off (the pg client objects, one per connection). */
const withoutJit = new WeakSet<object>();

/**
 * Runs a search statement on a connection whose session has JIT compilation off (set once per
 * connection, on its first search). Why: PostgreSQL compiles a statement to machine code when its
 * estimated cost passes jit_above_cost, and a search's estimate counts branches that never run (the
 * part past an id-ordered window that only runs when the window does not fill the page): at 1M
 * records the deep nest filter took 50 ms, 48 of them compiling, 3 without. The setting stays on
 * the connection, which a pool hands to the next search. Rows come as arrays of column values.
 * With `keep` the statement is kept named on the connection and planned once (postgres-statements.ts).
 */
export async function queryWithoutJit<R extends unknown[]>(
  db: pg.Pool | pg.PoolClient | pg.Client,
  sql: string,
  params: unknown[],
  keep = false,
): Promise<pg.QueryResult<R>> {
  if (!('totalCount' in db)) return onConnection<R>(db, sql, params, keep, false);
  const client = await checkOut(db);
  try {
    // Taken from the pool for this statement alone: no transaction of a caller's is open on it, so a stale kept statement may be run again.
    const result = await onConnection<R>(client, sql, params, keep, true);
    checkIn(client);
    return result;
  } catch (error) {
    // As pg's own pool.query does: a connection that failed is not handed out again.
    checkIn(client, error as Error);
    throw error;
  }
}

async function onConnection<R extends unknown[]>(
  client: pg.ClientBase,
  sql: string,
  params: unknown[],
  keep: boolean,
  owned: boolean,
): Promise<pg.QueryResult<R>> {
  if (!withoutJit.has(client)) {
    await client.query('SET jit = off');
    withoutJit.add(client);
  }
  return keep ? queryKept<R>(client, sql, params, owned) : client.query<R>({ text: sql, values: params, rowMode: 'array' });
}
