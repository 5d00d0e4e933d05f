import { systemClock, type Clock } from '../clock/index.js';
import type Database from 'better-sqlite3';
import { connectorNotFound } from './tenant-errors.js';
import type { StoredRateSlots, StoredSlotTake } from './types.js';

/**
 * The rate-limit slots of one connector in the SQLite file (migration 7), shared by the processes
 * that open it. Times are epoch ms of this machine's clock, which every process on one file shares.
 * Each take is one short `BEGIN IMMEDIATE` transaction: read the oldest slot, take it if its last
 * use has left the window; otherwise say when a slot can be free at the earliest (a lease in the
 * future counts as ending now).
 */
export class SqliteRateSlots implements StoredRateSlots {
  private ensured = 0;
  private readonly leases = new Map<number, number>();
  private readonly statements;
  private readonly takeTransaction;

  constructor(
    db: Database.Database,
    private readonly connectorId: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.statements = {
      // 0 (the epoch) is long out of any window: a new slot is free.
      ensure: db.prepare(`WITH RECURSIVE numbers (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM numbers WHERE n + 1 < @requests)
        INSERT INTO rate_limit_slots (connector_id, slot, used_at)
        SELECT @id, n, 0 FROM numbers WHERE true
        ON CONFLICT DO NOTHING`),
      oldest: db.prepare('SELECT slot, used_at FROM rate_limit_slots WHERE connector_id = @id AND slot < @requests ORDER BY used_at LIMIT 1'),
      lease: db.prepare('UPDATE rate_limit_slots SET used_at = @lease WHERE connector_id = @id AND slot = @slot'),
      release: db.prepare('UPDATE rate_limit_slots SET used_at = @now WHERE connector_id = @id AND slot = @slot AND used_at = @lease'),
    };
    this.takeTransaction = db.transaction((requests: number, windowMs: number, holdMs: number): StoredSlotTake => {
      const now = this.clock.now();
      const oldest = this.statements.oldest.get({ id: this.connectorId, requests }) as { slot: number; used_at: number } | undefined;
      if (!oldest) throw connectorNotFound();
      if (oldest.used_at <= now - windowMs) {
        const lease = now + holdMs;
        this.statements.lease.run({ id: this.connectorId, slot: oldest.slot, lease });
        this.leases.set(oldest.slot, lease);
        return { slot: oldest.slot };
      }
      return { waitMs: Math.max(0, Math.min(oldest.used_at, now) + windowMs - now) };
    });
  }

  async take(requests: number, windowMs: number, holdMs: number): Promise<StoredSlotTake> {
    this.ensure(requests);
    return this.takeTransaction.immediate(requests, windowMs, holdMs);
  }

  async release(slot: number): Promise<void> {
    const lease = this.leases.get(slot);
    if (lease === undefined) return;
    this.leases.delete(slot);
    this.statements.release.run({ id: this.connectorId, slot, lease, now: this.clock.now() });
  }

  private ensure(requests: number): void {
    if (this.ensured >= requests) return;
    try {
      this.statements.ensure.run({ id: this.connectorId, requests });
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw connectorNotFound();
      throw error;
    }
    this.ensured = requests;
  }
}
