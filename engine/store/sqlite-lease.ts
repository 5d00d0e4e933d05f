import { systemClock, type Clock } from '../clock/index.js';
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ownerIsGone, processOwner } from './process-owner.js';

/** How long a lease lasts without renewal: the longest a crashed process can keep others waiting. */
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 50;

/** A held credentials lease; `token` fences writes, so a lease that expired cannot write. */
export interface Lease {
  readonly token: string;
  /**
   * Gives the lease back (no-op if it was already lost) and stops its renewal. Never throws: if the
   * database cannot be written (closed store), the lease simply runs out.
   */
  release(): void;
}

/** Who holds a connector's lease now, as its row says. */
interface Holder {
  token: string | null;
  owner: string | null;
}

/**
 * The cross-process credentials lock of the SQLite store, as a lease in the connector's row.
 *
 * Why not a transaction held open while the caller refreshes a token: better-sqlite3 is
 * synchronous, so any other write on the same file (from this process or its own second
 * connection) would block the whole event loop in the busy handler while the holder awaits the
 * network, and could never finish. A lease takes one short UPDATE to acquire and one to release;
 * waiters poll with a growing back-off instead of blocking. The lease is renewed while held; it
 * names its process (`credentials_lock_owner`), so a waiter on the same host takes over the lease
 * of a process that died (kill -9) at once instead of waiting out the 30 s.
 */
export class SqliteLease {
  private readonly acquireStmt: Database.Statement;
  private readonly renewStmt: Database.Statement;
  private readonly releaseStmt: Database.Statement;
  private readonly holderStmt: Database.Statement;
  private readonly takeOverStmt: Database.Statement;
  private readonly owner = processOwner();

  constructor(
    db: Database.Database,
    private readonly clock: Clock = systemClock,
  ) {
    this.acquireStmt = db.prepare(`UPDATE connectors
      SET credentials_lock_token = @token, credentials_lock_expires_at = @expires, credentials_lock_owner = @owner
      WHERE id = @id AND (credentials_lock_token IS NULL OR credentials_lock_expires_at <= @now)`);
    this.holderStmt = db.prepare('SELECT credentials_lock_token AS token, credentials_lock_owner AS owner FROM connectors WHERE id = ?');
    // Fenced by the dead holder's token: two waiters that both saw it dead cannot both take over.
    this.takeOverStmt = db.prepare(`UPDATE connectors
      SET credentials_lock_token = @token, credentials_lock_expires_at = @expires, credentials_lock_owner = @owner
      WHERE id = @id AND credentials_lock_token = @dead`);
    this.renewStmt = db.prepare(`UPDATE connectors SET credentials_lock_expires_at = @expires
      WHERE id = @id AND credentials_lock_token = @token`);
    this.releaseStmt = db.prepare(`UPDATE connectors
      SET credentials_lock_token = NULL, credentials_lock_expires_at = NULL, credentials_lock_owner = NULL
      WHERE id = @id AND credentials_lock_token = @token`);
  }

  /** Waits for the connector's lease and takes it; `undefined` when the connector does not exist. */
  async acquire(id: string): Promise<Lease | undefined> {
    const token = randomUUID();
    let delay = FIRST_RETRY_MS;
    for (;;) {
      const now = this.clock.now();
      const taking = { id, token, now, expires: now + LEASE_MS, owner: this.owner };
      if (this.acquireStmt.run(taking).changes === 1) return this.held(id, token);
      const holder = this.holderStmt.get(id) as Holder | undefined;
      if (holder === undefined) return undefined;
      if (holder.token && holder.owner && ownerIsGone(holder.owner) && this.takeOverStmt.run({ ...taking, dead: holder.token }).changes === 1) {
        return this.held(id, token);
      }
      // A poll of the lease row, not a wait anyone schedules: real time even on a manual clock, so
      // a waiter sees a released lease without the clock moving (expiry is on the clock).
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }

  private held(id: string, token: string): Lease {
    const renewal = this.clock.setRepeating(() => {
      try {
        if (this.renewStmt.run({ id, token, expires: this.clock.now() + LEASE_MS }).changes === 0) renewal.cancel();
      } catch {
        renewal.cancel();
      }
    }, RENEW_EVERY_MS);
    return {
      token,
      release: () => {
        renewal.cancel();
        try {
          this.releaseStmt.run({ id, token });
        } catch {
          // The lease expires on its own; the caller's outcome matters more than this cleanup.
        }
      },
    };
  }
}
