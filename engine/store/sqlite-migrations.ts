import type Database from 'better-sqlite3';
import { latestVersion, type Migration } from './migration.js';
import { recordTableDdl, searchIndexDdl } from './record-table.js';
import { StoreSetupError } from './store-errors.js';

/**
 * The SQLite schema, step by step. Timestamps are ISO-8601 text (`toISOString()`, so text order is
 * time order); `config` is JSON text; `seq` breaks ties between rows created in the same
 * millisecond. The `credentials_lock_*` columns hold the cross-process credentials lease (see
 * sqlite-lease.ts).
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'platform clients and connectors',
    sql: `
      CREATE TABLE platform_clients (
        client_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE TABLE connectors (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        external_user_id TEXT NOT NULL,
        connector_type TEXT NOT NULL,
        name TEXT,
        config TEXT NOT NULL CHECK (json_valid(config)),
        auth_scheme TEXT NOT NULL,
        credentials_ciphertext TEXT NOT NULL,
        credentials_version INTEGER NOT NULL DEFAULT 1,
        credentials_lock_token TEXT,
        credentials_lock_expires_at INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX connectors_by_user ON connectors (external_user_id, created_at DESC, seq DESC);
    `,
  },
  {
    version: 2,
    name: 'synchronized records and sync state',
    sql: `
      ${recordTableDdl('sqlite')}
      ALTER TABLE search_records ADD COLUMN sync_generation INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE sync_state (
        connector_id TEXT NOT NULL,
        entity TEXT NOT NULL,
        status TEXT NOT NULL,
        records INTEGER NOT NULL,
        generation INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        last_success_at TEXT,
        last_error TEXT,
        PRIMARY KEY (connector_id, entity)
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'search-text-indexes',
    sql: searchIndexDdl('sqlite'),
  },
  {
    version: 4,
    name: 'incremental sync state and sync jobs',
    // sync_jobs: one row per connector, the queue every process shares. rerun_due_at / rerun_full
    // remember a request made while a pass runs (lease_owner set), so its release does not lose it.
    sql: `
      ALTER TABLE sync_state ADD COLUMN mode TEXT NOT NULL DEFAULT 'full' CHECK (mode IN ('full', 'incremental'));
      ALTER TABLE sync_state ADD COLUMN cursor TEXT;
      ALTER TABLE sync_state ADD COLUMN last_full_at TEXT;
      CREATE TABLE sync_jobs (
        connector_id TEXT PRIMARY KEY,
        due_at TEXT NOT NULL,
        full_requested INTEGER NOT NULL DEFAULT 0 CHECK (full_requested IN (0, 1)),
        lease_owner TEXT,
        lease_until TEXT,
        started_at TEXT,
        rerun_due_at TEXT,
        rerun_full INTEGER NOT NULL DEFAULT 0 CHECK (rerun_full IN (0, 1)),
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sync_jobs_by_due ON sync_jobs (due_at);
    `,
  },
  {
    version: 5,
    name: 'connectors belong to a platform client',
    // A tenant is a platform client and one of its end users. Rows from before this step are
    // given to the oldest client that is not revoked (the oldest of all when every client is
    // revoked; none when there is no client, which leaves them unreachable): README "Tenants".
    // SQLite cannot add a NOT NULL column to existing rows, so triggers refuse a missing client.
    sql: `
      ALTER TABLE connectors ADD COLUMN client_id TEXT REFERENCES platform_clients (client_id);
      UPDATE connectors SET client_id = (
        SELECT client_id FROM platform_clients ORDER BY revoked_at IS NOT NULL, created_at, rowid LIMIT 1);
      CREATE TRIGGER connectors_client_on_insert BEFORE INSERT ON connectors WHEN NEW.client_id IS NULL
        BEGIN SELECT RAISE(ABORT, 'connectors.client_id is required'); END;
      CREATE TRIGGER connectors_client_on_update BEFORE UPDATE OF client_id ON connectors WHEN NEW.client_id IS NULL
        BEGIN SELECT RAISE(ABORT, 'connectors.client_id is required'); END;
      DROP INDEX connectors_by_user;
      CREATE INDEX connectors_by_tenant ON connectors (client_id, external_user_id, created_at DESC, seq DESC);
    `,
  },
  {
    version: 6,
    name: 'connector auth state and lock owners',
    // auth_state: 'needs_reauth' once the upstream refused the grant (with when and why), until
    // new credentials arrive. credentials_lock_owner: the process holding the credentials lease,
    // so a lease of a process that died is taken over at once (process-owner.ts).
    sql: `
      ALTER TABLE connectors ADD COLUMN auth_state TEXT NOT NULL DEFAULT 'active' CHECK (auth_state IN ('active', 'needs_reauth'));
      ALTER TABLE connectors ADD COLUMN auth_state_at TEXT;
      ALTER TABLE connectors ADD COLUMN auth_reason TEXT;
      ALTER TABLE connectors ADD COLUMN credentials_lock_owner TEXT;
    `,
  },
  {
    version: 7,
    name: 'shared rate-limit slots',
    // One row per slot of a connector's rate limit, shared by the processes on this file: used_at
    // (epoch ms) is when the slot's last attempt ended, or the end of the lease of an attempt in
    // flight (see sqlite-rate-slots.ts). They go with their connector.
    sql: `
      CREATE TABLE rate_limit_slots (
        connector_id TEXT NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
        slot INTEGER NOT NULL CHECK (slot >= 0),
        used_at INTEGER NOT NULL,
        PRIMARY KEY (connector_id, slot)
      ) STRICT;
    `,
  },
  {
    version: 8,
    name: 'discovered value types',
    // The value types a pass discovered from the upstream (sync plan discover_fields), as JSON
    // {path: type}; NULL for entities that discover none. Search reads them with the state.
    sql: `
      ALTER TABLE sync_state ADD COLUMN value_types TEXT;
    `,
  },
  {
    version: 9,
    name: 'oauth apps and connect sessions',
    // The operator's OAuth app per connector type (its secret encrypted like credentials), and the
    // Connect page's sessions: the id is the SHA-256 of the URL's token, times are epoch ms, and
    // state_nonce/verifier_ciphertext belong to the authorization started last (see connect-records.ts).
    sql: `
      CREATE TABLE oauth_apps (
        connector_type TEXT PRIMARY KEY,
        client_id TEXT NOT NULL,
        secret_ciphertext TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE connect_sessions (
        id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES platform_clients (client_id),
        external_user_id TEXT NOT NULL,
        connector_types TEXT,
        return_url TEXT,
        expires_at INTEGER NOT NULL,
        state_type TEXT,
        state_nonce TEXT,
        verifier_ciphertext TEXT,
        state_config TEXT,
        state_used_at INTEGER,
        completed_at INTEGER,
        connector_id TEXT
      ) STRICT;
    `,
  },
  {
    version: 10,
    name: 'webhook endpoints and deliveries',
    // The outbox of README "Webhooks": one delivery row per event and endpoint, written in the
    // transaction of the fact where the store makes it. secret_ciphertext: the signing secret,
    // encrypted with the store's cipher. lease_*: the worker holding a delivery (never two at once).
    sql: `
      CREATE TABLE webhook_endpoints (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        client_id TEXT NOT NULL REFERENCES platform_clients (client_id),
        url TEXT NOT NULL,
        events TEXT CHECK (events IS NULL OR json_valid(events)),
        secret_ciphertext TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE webhook_deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        event_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        endpoint_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status_code INTEGER,
        last_error TEXT,
        next_attempt_at TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
      CREATE INDEX webhook_deliveries_by_client ON webhook_deliveries (client_id, seq DESC);
    `,
  },
];

/**
 * Brings the database to the latest schema inside one `BEGIN IMMEDIATE` transaction: the write
 * lock is taken before `schema_migrations` is read, so a second process opening the same file at
 * the same time waits (busy timeout) and then finds nothing left to do.
 */
export function migrateSqlite(db: Database.Database, migrations: readonly Migration[] = SQLITE_MIGRATIONS): void {
  const apply = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const rows = db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>;
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...applied);
    if (newest > latestVersion(migrations)) {
      throw new StoreSetupError(
        `The database schema is at version ${newest}, newer than this engine knows (${latestVersion(migrations)}); upgrade the engine.`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    }
  });
  apply.immediate();
}
