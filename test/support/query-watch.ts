import type pg from 'pg';

/**
 * Calls `seen` with the arguments of every query a pool's clients send, before it is sent: for
 * tests that count or read the statements a search sends (a pool of one connection makes the
 * count exact between two reads). Installed on each client as the pool connects it.
 */
export function watchQueries(pool: pg.Pool, seen: (args: unknown[]) => void): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      seen(args);
      return query(...args);
    };
  });
}
