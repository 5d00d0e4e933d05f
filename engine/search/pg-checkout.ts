import type pg from 'pg';

const ignoreSessionEnd = (): void => undefined;

/**
 * A pooled client for a long read or fill (sort keys, value keys, sort pairs) whose session may
 * end under it (terminated, a server restart): the query in flight then rejects, and the client's
 * own error event, which pg emits with no listener on a checked-out client, must not end the
 * process. Give it back with checkIn, which takes the listener off: the pool reuses the client,
 * and a listener left per checkout piled up on it (Node's MaxListenersExceededWarning past 10).
 */
export async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  client.on('error', ignoreSessionEnd);
  return client;
}

/** Gives back a client of checkOut, without the listener it added. */
export function checkIn(client: pg.PoolClient): void {
  client.off('error', ignoreSessionEnd);
  client.release();
}
