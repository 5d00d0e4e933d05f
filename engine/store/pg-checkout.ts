import type pg from 'pg';

const ignoreSessionEnd = (): void => undefined;

/**
 * A pooled client for a transaction, a read or a fill whose session may end under it (terminated,
 * a server restart, a failover): the query in flight then rejects, and the client's own `error`
 * event, which pg emits with no listener on a checked-out client, must not end the process
 * (pg-pool's own `pool.query` listens the same way while it holds a client). Give it back with
 * checkIn, which takes the listener off: the pool reuses the client, and a listener left per
 * checkout piled up on it (Node's MaxListenersExceededWarning past 10).
 */
export async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  client.on('error', ignoreSessionEnd);
  return client;
}

/** Gives back a client of checkOut, without the listener it added; with `broken` the pool drops it instead of handing it out again. */
export function checkIn(client: pg.PoolClient, broken?: Error): void {
  client.off('error', ignoreSessionEnd);
  client.release(broken);
}
