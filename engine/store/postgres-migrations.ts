import type { Pool } from 'pg';
import { latestVersion, type Migration } from './migration.js';
import { checkIn, checkOut } from './pg-checkout.js';
import { recordTableDdl, searchIndexDdl, searchWordPairsDdl } from './record-table.js';
import { StoreSetupError } from './store-errors.js';

/**
 * The PostgreSQL schema, step by step: the same tables as SQLite with native types (`timestamptz`,
 * `jsonb`). Credential locking uses row locks (`SELECT ... FOR UPDATE`), so no lease columns.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'platform clients and connectors',
    sql: `
      CREATE TABLE platform_clients (
        client_id text PRIMARY KEY,
        name text NOT NULL,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE TABLE connectors (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        external_user_id text NOT NULL,
        connector_type text NOT NULL,
        name text,
        config jsonb NOT NULL,
        auth_scheme text NOT NULL,
        credentials_ciphertext text NOT NULL,
        credentials_version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX connectors_by_user ON connectors (external_user_id, created_at DESC, seq DESC);
    `,
  },
  {
    version: 2,
    name: 'synchronized records and sync state',
    sql: `
      ${recordTableDdl('postgres')}
      ALTER TABLE search_records ADD COLUMN sync_generation bigint NOT NULL DEFAULT 0;
      CREATE TABLE sync_state (
        connector_id text NOT NULL,
        entity text NOT NULL,
        status text NOT NULL,
        records integer NOT NULL,
        generation bigint NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        PRIMARY KEY (connector_id, entity)
      );
    `,
  },
  {
    version: 3,
    name: 'search-text-indexes',
    sql: searchIndexDdl('postgres'),
  },
  {
    version: 4,
    name: 'incremental sync state and sync jobs',
    // sync_jobs: one row per connector, the queue every process shares (claimed with FOR UPDATE
    // SKIP LOCKED). rerun_due_at / rerun_full remember a request made while a pass runs
    // (lease_owner set), so its release does not lose it.
    sql: `
      ALTER TABLE sync_state ADD COLUMN mode text NOT NULL DEFAULT 'full' CHECK (mode IN ('full', 'incremental'));
      ALTER TABLE sync_state ADD COLUMN cursor text;
      ALTER TABLE sync_state ADD COLUMN last_full_at timestamptz;
      CREATE TABLE sync_jobs (
        connector_id text PRIMARY KEY,
        due_at timestamptz NOT NULL,
        full_requested boolean NOT NULL DEFAULT false,
        lease_owner text,
        lease_until timestamptz,
        started_at timestamptz,
        rerun_due_at timestamptz,
        rerun_full boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX sync_jobs_by_due ON sync_jobs (due_at);
    `,
  },
  {
    version: 5,
    name: 'connectors belong to a platform client',
    // A tenant is a platform client and one of its end users. Rows from before this step are
    // given to the oldest client that is not revoked (the oldest of all when every client is
    // revoked; none when there is no client, which leaves them unreachable): README "Tenants".
    // NOT VALID: new and updated rows must name a client; rows left without one stay readable.
    sql: `
      ALTER TABLE connectors ADD COLUMN client_id text REFERENCES platform_clients (client_id);
      UPDATE connectors SET client_id = (
        SELECT client_id FROM platform_clients ORDER BY revoked_at IS NOT NULL, created_at, client_id LIMIT 1);
      ALTER TABLE connectors ADD CONSTRAINT connectors_client_required CHECK (client_id IS NOT NULL) NOT VALID;
      DROP INDEX connectors_by_user;
      CREATE INDEX connectors_by_tenant ON connectors (client_id, external_user_id, created_at DESC, seq DESC);
    `,
  },
  {
    version: 6,
    name: 'connector auth state',
    // auth_state: 'needs_reauth' once the upstream refused the grant (with when and why), until
    // new credentials arrive. (The credentials lock is a row lock here: it dies with its session.)
    sql: `
      ALTER TABLE connectors ADD COLUMN auth_state text NOT NULL DEFAULT 'active' CHECK (auth_state IN ('active', 'needs_reauth'));
      ALTER TABLE connectors ADD COLUMN auth_state_at timestamptz;
      ALTER TABLE connectors ADD COLUMN auth_reason text;
    `,
  },
  {
    version: 7,
    name: 'shared rate-limit slots',
    // One row per slot of a connector's rate limit (N slots for N requests per window), shared by
    // every server process: used_at is when the slot's last attempt ended, or the end of the lease
    // of an attempt in flight (see postgres-rate-slots.ts). They go with their connector.
    sql: `
      CREATE TABLE rate_limit_slots (
        connector_id text NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
        slot integer NOT NULL CHECK (slot >= 0),
        used_at timestamptz NOT NULL,
        PRIMARY KEY (connector_id, slot)
      );
    `,
  },
  {
    version: 8,
    name: 'discovered value types',
    // The value types a pass discovered from the upstream (sync plan discover_fields), as JSON
    // {path: type}; NULL for entities that discover none. Search reads them with the state.
    sql: `
      ALTER TABLE sync_state ADD COLUMN value_types jsonb;
    `,
  },
  {
    version: 9,
    name: 'oauth apps and connect sessions',
    // As in sqlite-migrations.ts: the operator's OAuth apps (secret encrypted) and the Connect
    // page's sessions, keyed by the SHA-256 of the URL's token, times in epoch ms.
    sql: `
      CREATE TABLE oauth_apps (
        connector_type text PRIMARY KEY,
        client_id text NOT NULL,
        secret_ciphertext text NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE connect_sessions (
        id text PRIMARY KEY,
        client_id text NOT NULL REFERENCES platform_clients (client_id),
        external_user_id text NOT NULL,
        connector_types jsonb,
        return_url text,
        expires_at bigint NOT NULL,
        state_type text,
        state_nonce text,
        verifier_ciphertext text,
        state_config jsonb,
        state_used_at bigint,
        completed_at bigint,
        connector_id text
      );
    `,
  },
  {
    version: 10,
    name: 'webhook endpoints and deliveries',
    // The outbox of README "Webhooks": one delivery row per event and endpoint, written in the
    // transaction of the fact where the store makes it. secret_ciphertext: the signing secret,
    // encrypted with the store's cipher. Workers claim with FOR UPDATE SKIP LOCKED and a lease.
    sql: `
      CREATE TABLE webhook_endpoints (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        client_id text NOT NULL REFERENCES platform_clients (client_id),
        url text NOT NULL,
        events jsonb,
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        event_id text NOT NULL,
        event_type text NOT NULL,
        endpoint_id text NOT NULL,
        client_id text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        delivered_at timestamptz,
        lease_owner text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
      CREATE INDEX webhook_deliveries_by_client ON webhook_deliveries (client_id, seq DESC);
    `,
  },
  {
    version: 11,
    name: 'search text index word pairs',
    sql: searchWordPairsDdl('postgres'),
  },
  {
    version: 12,
    name: 'tenancy version',
    // One row whose number every write to clients, connectors or credentials raises in its own
    // transaction: a process reads it to know whether what it kept is still current (tenancyMark).
    sql: `
      CREATE TABLE tenancy_version (
        id smallint PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL
      );
      INSERT INTO tenancy_version (id, version) VALUES (1, 0);
    `,
  },
];

/** Any fixed 64-bit number; it only has to be the same in every process of this engine. */
const MIGRATION_LOCK_KEY = '7306912880345521061';

/**
 * Brings the database to the latest schema in one transaction that first takes a transaction-level
 * advisory lock: when several server processes start at once, one migrates and the others wait,
 * then see the committed `schema_migrations` and apply nothing. (Without the lock, two concurrent
 * `CREATE TABLE IF NOT EXISTS` can still collide.)
 */
export async function migratePostgres(pool: Pool, migrations: readonly Migration[] = POSTGRES_MIGRATIONS): Promise<void> {
  const client = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      const newest = Math.max(0, ...applied);
      if (newest > latestVersion(migrations)) {
        throw new StoreSetupError(
          `The database schema is at version ${newest}, newer than this engine knows (${latestVersion(migrations)}); upgrade the engine.`,
        );
      }
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
  } finally {
    checkIn(client, broken);
  }
}
