import type pg from 'pg';

/** Connections whose session already has JIT compilation off (the pg client objects, one per connection). */
const withoutJit = new WeakSet<object>();

/**
 * Runs a search statement on a connection whose session has JIT compilation off (set once per
 * connection, on its first search). Why: PostgreSQL compiles a statement to machine code when its
 * estimated cost passes jit_above_cost, and a search's estimate counts branches that never run (the
 * part past an id-ordered window that only runs when the window does not fill the page): at 1M
 * records the deep nest filter took 50 ms, 48 of them compiling, 3 without. The setting stays on
 * the connection, which a pool hands to the next search. Rows come as arrays of column values.
 */
export async function queryWithoutJit<R extends unknown[]>(
  db: pg.Pool | pg.PoolClient | pg.Client,
  sql: string,
  params: unknown[],
): Promise<pg.QueryResult<R>> {
  if (!('totalCount' in db)) {
    if (!withoutJit.has(db)) {
      await db.query('SET jit = off');
      withoutJit.add(db);
    }
    return db.query<R>({ text: sql, values: params, rowMode: 'array' });
  }
  const client = await db.connect();
  try {
    const result = await queryWithoutJit<R>(client, sql, params);
    client.release();
    return result;
  } catch (error) {
    // As pg's own pool.query does: a connection that failed is not handed out again.
    client.release(error as Error);
    throw error;
  }
}
