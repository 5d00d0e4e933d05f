import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

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

/**
 * The cross-process credentials lock of the SQLite store, as a lease in the connector's row.
 *
 * Why not a transaction held open while the caller refreshes a token: better-sqlite3 is
 * synchronous, so any other write on the same file (from this process or its own second
 * connection) would block the whole event loop in the busy handler while the holder awaits the
 * network, and could never finish. A lease takes one short UPDATE to acquire and one to release;
 * waiters poll with a growing back-off instead of blocking. The lease is renewed while held and
 * expires after 30 s if its process dies.
 */
export class SqliteLease {
  private readonly acquireStmt: Database.Statement;
  private readonly renewStmt: Database.Statement;
  private readonly releaseStmt: Database.Statement;
  private readonly existsStmt: Database.Statement;

  constructor(db: Database.Database) {
    this.acquireStmt = db.prepare(`UPDATE connectors
      SET credentials_lock_token = @token, credentials_lock_expires_at = @expires
      WHERE id = @id AND (credentials_lock_token IS NULL OR credentials_lock_expires_at <= @now)`);
    this.renewStmt = db.prepare(`UPDATE connectors SET credentials_lock_expires_at = @expires
      WHERE id = @id AND credentials_lock_token = @token`);
    this.releaseStmt = db.prepare(`UPDATE connectors
      SET credentials_lock_token = NULL, credentials_lock_expires_at = NULL
      WHERE id = @id AND credentials_lock_token = @token`);
    this.existsStmt = db.prepare('SELECT 1 FROM connectors WHERE id = ?').pluck();
  }

  /** Waits for the connector's lease and takes it; `undefined` when the connector does not exist. */
  async acquire(id: string): Promise<Lease | undefined> {
    const token = randomUUID();
    let delay = FIRST_RETRY_MS;
    for (;;) {
      const now = Date.now();
      if (this.acquireStmt.run({ id, token, now, expires: now + LEASE_MS }).changes === 1) return this.held(id, token);
      if (this.existsStmt.get(id) === undefined) return undefined;
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }

  private held(id: string, token: string): Lease {
    const renewal = setInterval(() => {
      try {
        if (this.renewStmt.run({ id, token, expires: Date.now() + LEASE_MS }).changes === 0) clearInterval(renewal);
      } catch {
        clearInterval(renewal);
      }
    }, RENEW_EVERY_MS);
    renewal.unref();
    return {
      token,
      release: () => {
        clearInterval(renewal);
        try {
          this.releaseStmt.run({ id, token });
        } catch {
          // The lease expires on its own; the caller's outcome matters more than this cleanup.
        }
      },
    };
  }
}
