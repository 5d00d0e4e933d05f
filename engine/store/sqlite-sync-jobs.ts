import { systemClock, type Clock } from '../clock/index.js';
import type Database from 'better-sqlite3';
import { ownerIsGone } from './process-owner.js';
import type { ReleaseSyncJobOptions, ScheduleSyncOptions, SyncJob } from './types.js';

const JOB_COLUMNS = 'connector_id, due_at, full_requested, lease_owner, lease_until, started_at';

/** SQLite keeps booleans as 0/1 (STRICT tables have no boolean type). */
type JobDbRow = Omit<SyncJob, 'full_requested'> & { full_requested: number };

/** A lease is free when it was never taken or has run out (its runner died or stalled). */
const LEASE_FREE = '(lease_until IS NULL OR lease_until <= @now)';

/**
 * The sync job queue of the SQLite store. Times are ISO text from the JS clock, passed in as
 * parameters (text order is time order), so every comparison uses the same clock as the callers.
 *
 * Claims run as one `BEGIN IMMEDIATE` transaction: the write lock is taken before the free job is
 * looked up, so two processes sharing the file cannot both see it free; the other one waits (busy
 * timeout) and then finds the lease taken. Nothing is held across an await.
 */
export class SqliteSyncJobs {
  private readonly stmt: ReturnType<typeof prepareJobStatements>;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock = systemClock,
  ) {
    this.stmt = prepareJobStatements(db);
  }

  schedule(connectorId: string, options: ScheduleSyncOptions): void {
    this.stmt.schedule.run({
      id: connectorId,
      due: options.dueAt.toISOString(),
      full: options.full ? 1 : 0,
      earliest: options.earliest ? 1 : 0,
      now: new Date(this.clock.now()).toISOString(),
    });
  }

  claim(owner: string, leaseMs: number, connectorId?: string): SyncJob | undefined {
    const now = new Date(this.clock.now());
    const lease = { owner, now: now.toISOString(), until: new Date(now.getTime() + leaseMs).toISOString() };
    const take = this.db.transaction((): JobDbRow | undefined => {
      this.endLeasesOfGoneOwners(lease.now);
      if (connectorId === undefined) return this.stmt.claimDue.get(lease) as JobDbRow | undefined;
      this.stmt.ensureJob.run({ id: connectorId, now: lease.now });
      return this.stmt.claimOne.get({ ...lease, id: connectorId }) as JobDbRow | undefined;
    });
    const row = take.immediate();
    return row && toJob(row);
  }

  renew(connectorId: string, owner: string, leaseMs: number): boolean {
    const now = this.clock.now();
    const until = new Date(now + leaseMs).toISOString();
    return this.stmt.renew.run({ id: connectorId, owner, until, now: new Date(now).toISOString() }).changes === 1;
  }

  release(connectorId: string, owner: string, options: ReleaseSyncJobOptions): boolean {
    return (
      this.stmt.release.run({
        id: connectorId,
        owner,
        next: options.nextDueAt.toISOString(),
        fullDone: options.fullDone ? 1 : 0,
        now: new Date(this.clock.now()).toISOString(),
      }).changes === 1
    );
  }

  get(connectorId: string): SyncJob | undefined {
    const row = this.stmt.get.get(connectorId) as JobDbRow | undefined;
    return row && toJob(row);
  }

  list(): SyncJob[] {
    return (this.stmt.list.all() as JobDbRow[]).map(toJob);
  }

  /**
   * Ends the leases held by processes of this host that no longer run (killed with -9), so their
   * jobs are claimable at once rather than when the lease runs out. Runs inside the claim's
   * transaction, so the check and the claim see the same rows.
   */
  private endLeasesOfGoneOwners(now: string): void {
    const held = this.stmt.leased.all({ now }) as Array<{ connector_id: string; lease_owner: string }>;
    for (const row of held) if (ownerIsGone(row.lease_owner)) this.stmt.endLease.run({ id: row.connector_id, owner: row.lease_owner, now });
  }

  /** Part of deleting a connector; runs inside the caller's transaction. */
  delete(connectorId: string): void {
    this.stmt.delete.run(connectorId);
  }
}

/** Every statement of the queue, prepared once per connection. */
function prepareJobStatements(db: Database.Database) {
  const claimSet = `lease_owner = @owner, lease_until = @until, started_at = @now,
    rerun_due_at = NULL, rerun_full = 0, updated_at = @now`;
  return {
    // In DO UPDATE, bare column names are the stored row. While a pass runs (lease_owner set), an
    // `earliest` request also lands in rerun_due_at and a full request in rerun_full, because the
    // release of that pass overwrites due_at and may clear full_requested.
    schedule: db.prepare(`INSERT INTO sync_jobs (connector_id, due_at, full_requested, updated_at)
      VALUES (@id, @due, @full, @now)
      ON CONFLICT (connector_id) DO UPDATE SET
        due_at = CASE WHEN @earliest = 1 AND due_at < excluded.due_at THEN due_at ELSE excluded.due_at END,
        full_requested = max(full_requested, excluded.full_requested),
        rerun_due_at = CASE
          WHEN lease_owner IS NULL OR @earliest = 0 THEN rerun_due_at
          WHEN rerun_due_at IS NULL OR excluded.due_at < rerun_due_at THEN excluded.due_at
          ELSE rerun_due_at END,
        rerun_full = CASE WHEN lease_owner IS NULL THEN rerun_full ELSE max(rerun_full, excluded.full_requested) END,
        updated_at = excluded.updated_at`),
    // A claimed pass covers every request made before it starts, hence the rerun_* reset.
    claimDue: db.prepare(`UPDATE sync_jobs SET ${claimSet}
      WHERE connector_id = (
        SELECT connector_id FROM sync_jobs WHERE due_at <= @now AND ${LEASE_FREE}
        ORDER BY due_at, connector_id LIMIT 1)
      RETURNING ${JOB_COLUMNS}`),
    ensureJob: db.prepare(`INSERT INTO sync_jobs (connector_id, due_at, updated_at) VALUES (@id, @now, @now)
      ON CONFLICT (connector_id) DO NOTHING`),
    claimOne: db.prepare(`UPDATE sync_jobs SET ${claimSet}
      WHERE connector_id = @id AND ${LEASE_FREE}
      RETURNING ${JOB_COLUMNS}`),
    renew: db.prepare(`UPDATE sync_jobs SET lease_until = @until, updated_at = @now
      WHERE connector_id = @id AND lease_owner = @owner`),
    release: db.prepare(`UPDATE sync_jobs SET
        due_at = CASE WHEN rerun_due_at IS NOT NULL AND rerun_due_at < @next THEN rerun_due_at ELSE @next END,
        full_requested = CASE WHEN @fullDone = 1 AND rerun_full = 0 THEN 0 ELSE full_requested END,
        lease_owner = NULL, lease_until = NULL, started_at = NULL, rerun_due_at = NULL, rerun_full = 0,
        updated_at = @now
      WHERE connector_id = @id AND lease_owner = @owner`),
    leased: db.prepare('SELECT connector_id, lease_owner FROM sync_jobs WHERE lease_owner IS NOT NULL AND lease_until > @now'),
    endLease: db.prepare('UPDATE sync_jobs SET lease_until = @now WHERE connector_id = @id AND lease_owner = @owner'),
    get: db.prepare(`SELECT ${JOB_COLUMNS} FROM sync_jobs WHERE connector_id = ?`),
    list: db.prepare(`SELECT ${JOB_COLUMNS} FROM sync_jobs ORDER BY due_at, connector_id`),
    delete: db.prepare('DELETE FROM sync_jobs WHERE connector_id = ?'),
  };
}

function toJob(row: JobDbRow): SyncJob {
  return { ...row, full_requested: row.full_requested === 1 };
}
