import type pg from 'pg';

/**
 * Raises the tenancy version in the caller's transaction (every write to platform clients,
 * connectors or credentials calls it last): other processes see the new number exactly when they
 * can see the write, at its commit.
 */
export async function raiseTenancyVersion(client: pg.PoolClient): Promise<void> {
  await client.query('UPDATE tenancy_version SET version = version + 1 WHERE id = 1');
}

/**
 * The PostgreSQL side of `Store.tenancyMark`: the `tenancy_version` row, read at most once per
 * event-loop turn (the requests handled in one turn share the read). The mark moves when the
 * version read is higher than the last one seen, and on this process's own tenancy writes.
 *
 * Why a read and not LISTEN/NOTIFY (as before): a notification reaches another process some time
 * after the commit, and a request that process handled meanwhile used what it kept: a client
 * revoked through one process was still served by another, once, under load. A read sent in the
 * turn that handles a request sees every commit that finished before the request arrived (its
 * bytes were in before the turn began, and the read is sent after), so a revocation, a PATCH or
 * a DELETE answered by one process holds in every other at once. The cost is one round trip per
 * turn on a scoped request, in place of the two lookups (client, connector) it saves.
 * A read that fails answers a new mark: nothing kept is used, and the lookups say what is wrong.
 */
export class TenancyVersion {
  private mark = 0;
  private lastVersion = -1;
  /** This turn's read, shared by the requests of the turn. */
  private turn: Promise<number> | undefined;

  constructor(private readonly pool: pg.Pool) {}

  /** The mark as of a version read sent in this event-loop turn. */
  current(): Promise<number> {
    if (this.turn) return this.turn;
    const read = this.pool.query<{ version: string }>('SELECT version FROM tenancy_version WHERE id = 1').then(
      ({ rows }) => this.seen(Number(rows[0]?.version ?? Number.NaN)),
      () => ++this.mark,
    );
    this.turn = read;
    setImmediate(() => {
      if (this.turn === read) this.turn = undefined;
    });
    return read;
  }

  /** This process changed tenancy data: its own later reads must not use a read sent before the commit. */
  bump(): void {
    this.mark++;
    this.turn = undefined;
  }

  /** Reads answer in the order their queries end, not always the order they were sent: an older version moves nothing. */
  private seen(version: number): number {
    if (!Number.isFinite(version)) return ++this.mark;
    if (version > this.lastVersion) {
      this.lastVersion = version;
      this.mark++;
    }
    return this.mark;
  }
}
