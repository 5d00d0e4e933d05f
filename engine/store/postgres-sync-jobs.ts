import { systemClock, type Clock } from '../clock/index.js';
import type pg from 'pg';
import { ownerIsGone } from './process-owner.js';
import type { ReleaseSyncJobOptions, ScheduleSyncOptions, SyncJob } from './types.js';

const JOB_COLUMNS = 'j.connector_id, j.due_at, j.full_requested, j.lease_owner, j.lease_until, j.started_at';

type JobDbRow = Omit<SyncJob, 'due_at' | 'lease_until' | 'started_at'> & {
  due_at: Date;
  lease_until: Date | null;
  started_at: Date | null;
};

/** The columns a claim sets; $1 owner, $2 now, $3 lease end. A new pass covers earlier requests. */
const CLAIM_SET = `lease_owner = $1, lease_until = $3, started_at = $2,
  rerun_due_at = NULL, rerun_full = false, updated_at = $2`;

/**
 * The sync job queue of the PostgreSQL store. Times come from the JS clock as parameters (not
 * `now()`), as in the SQLite store, so both backends compare against the same clock as callers.
 *
 * Claims lock the candidate row with `SELECT ... FOR UPDATE SKIP LOCKED` (DESIGN.md §6): a process
 * claiming at the same time skips a row another claim is taking instead of waiting for it, and a
 * row taken and committed meanwhile is re-checked under the lock and dropped. So concurrent
 * processes never take the same job, and none blocks behind another's claim.
 */
export class PostgresSyncJobs {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock = systemClock,
  ) {}

  async schedule(connectorId: string, options: ScheduleSyncOptions): Promise<void> {
    // While a pass runs (lease_owner set), an `earliest` request also lands in rerun_due_at and a
    // full request in rerun_full, because the release of that pass overwrites due_at and may clear
    // full_requested. LEAST ignores NULL.
    await this.pool.query(
      `INSERT INTO sync_jobs AS j (connector_id, due_at, full_requested, updated_at) VALUES ($1, $2, $3, $5)
       ON CONFLICT (connector_id) DO UPDATE SET
         due_at = CASE WHEN $4::boolean THEN LEAST(j.due_at, excluded.due_at) ELSE excluded.due_at END,
         full_requested = j.full_requested OR excluded.full_requested,
         rerun_due_at = CASE WHEN j.lease_owner IS NOT NULL AND $4::boolean
           THEN LEAST(j.rerun_due_at, excluded.due_at) ELSE j.rerun_due_at END,
         rerun_full = j.rerun_full OR (j.lease_owner IS NOT NULL AND excluded.full_requested),
         updated_at = excluded.updated_at`,
      [connectorId, options.dueAt.toISOString(), options.full === true, options.earliest === true, new Date(this.clock.now()).toISOString()],
    );
  }

  async claim(owner: string, leaseMs: number, connectorId?: string): Promise<SyncJob | undefined> {
    await this.endLeasesOfGoneOwners(new Date(this.clock.now()).toISOString());
    const now = new Date(this.clock.now());
    const lease = [owner, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString()];
    if (connectorId === undefined) return this.claimDue(lease);
    // Its own statement: the claim's snapshot must already see the row. Concurrent inserts of the
    // same id wait on each other and all but one do nothing.
    await this.pool.query(`INSERT INTO sync_jobs (connector_id, due_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (connector_id) DO NOTHING`, [
      connectorId,
      lease[1],
    ]);
    return this.claimOne(lease, connectorId);
  }

  async renew(connectorId: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.clock.now();
    const { rowCount } = await this.pool.query('UPDATE sync_jobs SET lease_until = $3, updated_at = $4 WHERE connector_id = $1 AND lease_owner = $2', [
      connectorId,
      owner,
      new Date(now + leaseMs).toISOString(),
      new Date(now).toISOString(),
    ]);
    return rowCount === 1;
  }

  async release(connectorId: string, owner: string, options: ReleaseSyncJobOptions): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sync_jobs SET
         due_at = LEAST($3::timestamptz, rerun_due_at),
         full_requested = CASE WHEN $4::boolean AND NOT rerun_full THEN false ELSE full_requested END,
         lease_owner = NULL, lease_until = NULL, started_at = NULL, rerun_due_at = NULL, rerun_full = false,
         updated_at = $5
       WHERE connector_id = $1 AND lease_owner = $2`,
      [connectorId, owner, options.nextDueAt.toISOString(), options.fullDone, new Date(this.clock.now()).toISOString()],
    );
    return rowCount === 1;
  }

  async get(connectorId: string): Promise<SyncJob | undefined> {
    const { rows } = await this.pool.query<JobDbRow>(`SELECT ${JOB_COLUMNS} FROM sync_jobs AS j WHERE j.connector_id = $1`, [connectorId]);
    return rows[0] && toJob(rows[0]);
  }

  async list(): Promise<SyncJob[]> {
    const { rows } = await this.pool.query<JobDbRow>(`SELECT ${JOB_COLUMNS} FROM sync_jobs AS j ORDER BY j.due_at, j.connector_id COLLATE "C"`);
    return rows.map(toJob);
  }

  /**
   * Ends the leases held by processes of this host that no longer run (killed with -9), so their
   * jobs are claimable at once rather than when the lease runs out. The UPDATE names the dead
   * owner, so a lease taken over meanwhile is left alone.
   */
  private async endLeasesOfGoneOwners(now: string): Promise<void> {
    const { rows } = await this.pool.query<{ connector_id: string; lease_owner: string }>(
      'SELECT connector_id, lease_owner FROM sync_jobs WHERE lease_owner IS NOT NULL AND lease_until > $1',
      [now],
    );
    for (const row of rows.filter((held) => ownerIsGone(held.lease_owner))) {
      await this.pool.query('UPDATE sync_jobs SET lease_until = $3 WHERE connector_id = $1 AND lease_owner = $2', [row.connector_id, row.lease_owner, now]);
    }
  }

  /** Part of deleting a connector; runs on the caller's transaction. */
  async delete(client: pg.PoolClient, connectorId: string): Promise<void> {
    await client.query('DELETE FROM sync_jobs WHERE connector_id = $1', [connectorId]);
  }

  /** The due job with the earliest due_at (ties by id, byte order as in SQLite) whose lease is free. */
  private async claimDue(lease: string[]): Promise<SyncJob | undefined> {
    const { rows } = await this.pool.query<JobDbRow>(
      `WITH next AS (
         SELECT connector_id FROM sync_jobs
         WHERE due_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
         ORDER BY due_at, connector_id COLLATE "C"
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
       UPDATE sync_jobs AS j SET ${CLAIM_SET}
       FROM next WHERE j.connector_id = next.connector_id
       RETURNING ${JOB_COLUMNS}`,
      lease,
    );
    return rows[0] && toJob(rows[0]);
  }

  private async claimOne(lease: string[], connectorId: string): Promise<SyncJob | undefined> {
    const { rows } = await this.pool.query<JobDbRow>(
      `WITH target AS (
         SELECT connector_id FROM sync_jobs
         WHERE connector_id = $4 AND (lease_until IS NULL OR lease_until <= $2)
         FOR UPDATE SKIP LOCKED)
       UPDATE sync_jobs AS j SET ${CLAIM_SET}
       FROM target WHERE j.connector_id = target.connector_id
       RETURNING ${JOB_COLUMNS}`,
      [...lease, connectorId],
    );
    return rows[0] && toJob(rows[0]);
  }
}

function toJob(row: JobDbRow): SyncJob {
  return {
    connector_id: row.connector_id,
    due_at: row.due_at.toISOString(),
    full_requested: row.full_requested,
    lease_owner: row.lease_owner,
    lease_until: row.lease_until ? row.lease_until.toISOString() : null,
    started_at: row.started_at ? row.started_at.toISOString() : null,
  };
}
