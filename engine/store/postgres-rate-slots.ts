import type pg from 'pg';
import { connectorNotFound } from './tenant-errors.js';
import type { StoredRateSlots, StoredSlotTake } from './types.js';

/** PostgreSQL's code for a foreign key violation: the connector the slots belong to is gone. */
const FOREIGN_KEY_VIOLATION = '23503';

/** Creates the slots a budget of `$2` requests needs, each free ('epoch' is long out of any window). */
const ENSURE = `INSERT INTO rate_limit_slots (connector_id, slot, used_at)
  SELECT $1, g, 'epoch'::timestamptz FROM generate_series(0, $2::int - 1) AS g
  ON CONFLICT DO NOTHING`;

/**
 * Takes the slot whose last use is oldest, if that use has left the window: the row is locked
 * with SKIP LOCKED, so processes taking at the same moment take different slots and never wait
 * on each other. Otherwise (same round trip) says when a slot can be free at the earliest: a
 * lease in the future counts as ending now. Times are the database's (`clock_timestamp()`), so
 * the processes' own clocks do not matter.
 */
const TAKE = `WITH candidate AS (
    SELECT slot FROM rate_limit_slots
    WHERE connector_id = $1 AND slot < $2::int AND used_at <= clock_timestamp() - make_interval(secs => $3::float8 / 1000)
    ORDER BY used_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  ), taken AS (
    UPDATE rate_limit_slots AS s SET used_at = clock_timestamp() + make_interval(secs => $4::float8 / 1000)
    FROM candidate WHERE s.connector_id = $1 AND s.slot = candidate.slot
    RETURNING s.slot, s.used_at::text AS lease
  )
  SELECT taken.slot, taken.lease, NULL::float8 AS wait_ms FROM taken
  UNION ALL
  -- An aggregate answers one row even when nothing matches: its wait_ms is then NULL (no slots).
  SELECT NULL, NULL, (EXTRACT(EPOCH FROM
      min(LEAST(used_at, clock_timestamp())) + make_interval(secs => $3::float8 / 1000) - clock_timestamp()) * 1000)::float8
    FROM rate_limit_slots
    WHERE connector_id = $1 AND slot < $2::int AND NOT EXISTS (SELECT 1 FROM taken)`;

/** Stamps a slot with the end of its attempt, unless its lease ran out and another process took it. */
const RELEASE = `UPDATE rate_limit_slots SET used_at = clock_timestamp()
  WHERE connector_id = $1 AND slot = $2 AND used_at = $3::timestamptz`;

/**
 * The rate-limit slots of one connector in PostgreSQL (migration 7), shared by every server
 * process on the database: N processes together send at most what one upstream account allows.
 */
export class PostgresRateSlots implements StoredRateSlots {
  private ensured = 0;
  /** The lease each slot this object holds was taken with: a release only ends its own lease. */
  private readonly leases = new Map<number, string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectorId: string,
  ) {}

  async take(requests: number, windowMs: number, holdMs: number): Promise<StoredSlotTake> {
    await this.ensure(requests);
    const { rows } = await this.pool.query<{ slot: number | null; lease: string | null; wait_ms: number | null }>(TAKE, [
      this.connectorId,
      requests,
      windowMs,
      holdMs,
    ]);
    const taken = rows.find((row) => row.slot !== null);
    if (taken) {
      this.leases.set(taken.slot as number, taken.lease as string);
      return { slot: taken.slot as number };
    }
    const waitMs = rows.find((row) => row.wait_ms !== null)?.wait_ms;
    // No slot rows at all: the connector (and its slots) were deleted since the slots were created.
    if (waitMs === undefined || waitMs === null) throw connectorNotFound();
    return { waitMs: Math.max(0, Math.ceil(waitMs)) };
  }

  async release(slot: number): Promise<void> {
    const lease = this.leases.get(slot);
    if (lease === undefined) return;
    this.leases.delete(slot);
    await this.pool.query(RELEASE, [this.connectorId, slot, lease]);
  }

  private async ensure(requests: number): Promise<void> {
    if (this.ensured >= requests) return;
    try {
      await this.pool.query(ENSURE, [this.connectorId, requests]);
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw connectorNotFound();
      throw error;
    }
    this.ensured = requests;
  }
}
