import type { ConnectRecords } from './connect-records.js';
import { checkIn, checkOut } from './pg-checkout.js';
import { PostgresConnectRecords } from './postgres-connect-records.js';
import { systemClock, type Clock } from '../clock/index.js';
import pg from 'pg';
import { ConnectorNotFoundError, InternalError } from '../errors.js';
import { newId } from './ids.js';
import { KeyedMutex } from './keyed-mutex.js';
import { patchColumns } from './patch-columns.js';
import { migratePostgres } from './postgres-migrations.js';
import { upsertPostgresRecords } from './postgres-record-writes.js';
import { PostgresRateSlots } from './postgres-rate-slots.js';
import { PostgresSyncJobs } from './postgres-sync-jobs.js';
import { PostgresWebhooks } from './postgres-webhooks.js';
import { raiseTenancyVersion, TenancyVersion } from './postgres-tenancy.js';
import { limitReached, notRevoked } from './tenant-errors.js';
import type { EventConnector } from './webhook-outbox.js';
import type {
  ConnectorPatch,
  ConnectorRow,
  CreateConnectorOptions,
  CredentialsLockResult,
  ListConnectorsOptions,
  NewConnector,
  NewPlatformClient,
  PlatformClient,
  PlatformClientRecord,
  RecordReader,
  ReleaseSyncJobOptions,
  ScheduleSyncOptions,
  Store,
  StoredCredentials,
  StoredRateSlots,
  SyncedRecord,
  SyncFreshness,
  SyncJob,
  SyncState,
  Tenant,
} from './types.js';

const CONNECTOR_COLUMNS =
  'id, client_id, external_user_id, connector_type, name, config, auth_scheme, credentials_version, auth_state, auth_state_at, auth_reason, created_at, updated_at';
/** A connector row is reachable only while its platform client is not revoked. */
const LIVE_CLIENT = 'EXISTS (SELECT 1 FROM platform_clients p WHERE p.client_id = connectors.client_id AND p.revoked_at IS NULL)';
/** New credentials end a 'needs_reauth' state. */
const AUTH_ACTIVE = `auth_state = 'active', auth_reason = NULL,
  auth_state_at = CASE WHEN auth_state = 'active' THEN auth_state_at ELSE now() END`;
/** The tenant's own, live connector: $1 id, $2 client, $3 user. */
const TENANT_CONNECTOR = `id = $1 AND client_id = $2 AND external_user_id = $3 AND ${LIVE_CLIENT}`;
/** Any fixed 64-bit number: the namespace of the per-tenant advisory locks of a create. */
const CREATE_LOCK_SPACE = 5_118_203;
const CLIENT_COLUMNS = 'client_id, name, created_at, revoked_at';

type Timestamps<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] extends string ? Date : Date | null };
type ConnectorDbRow = Timestamps<ConnectorRow, 'created_at' | 'updated_at' | 'auth_state_at'>;
type ClientDbRow = Timestamps<PlatformClientRecord, 'created_at' | 'revoked_at'>;

/**
 * Connects a pool to the database and migrates it. The pool's `error` listener is required: an idle
 * connection that the server drops (restart, failover) would otherwise crash the process; the pool
 * discards it and the next query opens a fresh one.
 */
export async function openPostgresStore(url: string, clock: Clock = systemClock): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresStore(pool, new TenancyVersion(pool), clock);
}

/** The scale-out store: several server processes share one database through it. */
class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  private readonly locks = new KeyedMutex();
  private readonly jobs: PostgresSyncJobs;
  readonly webhooks: PostgresWebhooks;
  private closed = false;
  private readonly closing: Array<() => Promise<void>> = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly tenancy: TenancyVersion,
    private readonly clock: Clock = systemClock,
  ) {
    this.jobs = new PostgresSyncJobs(pool, clock);
    this.webhooks = new PostgresWebhooks(pool, clock);
  }

  async createClient(input: NewPlatformClient): Promise<PlatformClient> {
    const { rows } = await this.pool.query<ClientDbRow>(
      `INSERT INTO platform_clients (client_id, name, secret_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING ${CLIENT_COLUMNS}`,
      [newId('cli_'), input.name, input.secretHash, new Date(this.clock.now()).toISOString()],
    );
    return toClient(first(rows));
  }

  async findClient(clientId: string): Promise<PlatformClientRecord | undefined> {
    const { rows } = await this.pool.query<ClientDbRow>(`SELECT ${CLIENT_COLUMNS}, secret_hash FROM platform_clients WHERE client_id = $1`, [clientId]);
    return rows[0] && { ...toClient(rows[0]), secret_hash: rows[0].secret_hash };
  }

  async listClients(): Promise<PlatformClient[]> {
    const { rows } = await this.pool.query<ClientDbRow>(`SELECT ${CLIENT_COLUMNS} FROM platform_clients ORDER BY created_at DESC, client_id DESC`);
    return rows.map(toClient);
  }

  async revokeClient(clientId: string): Promise<boolean> {
    return this.transaction(async (client) => {
      const { rowCount } = await client.query('UPDATE platform_clients SET revoked_at = $1 WHERE client_id = $2 AND revoked_at IS NULL', [
        new Date(this.clock.now()).toISOString(),
        clientId,
      ]);
      if (rowCount !== 1) return false;
      await client.query('DELETE FROM sync_jobs WHERE connector_id IN (SELECT id FROM connectors WHERE client_id = $1)', [clientId]);
      await raiseTenancyVersion(client);
      return true;
    });
  }

  async purgeClientConnectors(clientId: string): Promise<number> {
    return this.transaction(async (client) => {
      const { rows } = await client.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM platform_clients WHERE client_id = $1 FOR UPDATE', [clientId]);
      if (!rows[0]?.revoked_at) throw notRevoked(clientId);
      const owned = 'SELECT id FROM connectors WHERE client_id = $1';
      await client.query(`DELETE FROM search_records WHERE connector_id IN (${owned})`, [clientId]);
      await client.query(`DELETE FROM sync_state WHERE connector_id IN (${owned})`, [clientId]);
      await client.query(`DELETE FROM sync_jobs WHERE connector_id IN (${owned})`, [clientId]);
      const { rowCount } = await client.query('DELETE FROM connectors WHERE client_id = $1', [clientId]);
      await raiseTenancyVersion(client);
      return rowCount ?? 0;
    });
  }

  async createConnector(input: NewConnector, options: CreateConnectorOptions = {}): Promise<ConnectorRow> {
    const { clientId, externalUserId } = input.tenant;
    return this.transaction(async (client) => {
      if (options.maxPerTenant !== undefined) {
        // Creates of one tenant queue on this lock until commit, so the count cannot go stale
        // between two processes' checks (READ COMMITTED would let both see 99 and both insert).
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CREATE_LOCK_SPACE, `${clientId}/${externalUserId}`]);
        const { rows } = await client.query<{ held: number }>('SELECT count(*)::int AS held FROM connectors WHERE client_id = $1 AND external_user_id = $2', [
          clientId,
          externalUserId,
        ]);
        if ((rows[0]?.held ?? 0) >= options.maxPerTenant) throw limitReached(externalUserId, options.maxPerTenant);
      }
      const now = new Date(this.clock.now()).toISOString();
      const { rows } = await client.query<ConnectorDbRow>(
        `INSERT INTO connectors
          (id, client_id, external_user_id, connector_type, name, config, auth_scheme, credentials_ciphertext, credentials_version,
            created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, 1, $9, $9)
          RETURNING ${CONNECTOR_COLUMNS}`,
        [
          newId('conn_'),
          clientId,
          externalUserId,
          input.connector_type,
          input.name ?? null,
          JSON.stringify(input.config),
          input.auth_scheme,
          input.credentials_ciphertext,
          now,
        ],
      );
      const row = toConnector(first(rows));
      // In the insert's transaction: a connector is never created without its event (README "Webhooks").
      await this.webhooks.emitWith(client, row, { type: 'connector.created', data: { name: row.name } });
      return row;
    });
  }

  async getConnector(tenant: Tenant, id: string): Promise<ConnectorRow | undefined> {
    const { rows } = await this.pool.query<ConnectorDbRow>(`SELECT ${CONNECTOR_COLUMNS} FROM connectors WHERE ${TENANT_CONNECTOR}`, tenantValues(tenant, id));
    return rows[0] && toConnector(rows[0]);
  }

  async findConnector(id: string): Promise<ConnectorRow | undefined> {
    const { rows } = await this.pool.query<ConnectorDbRow>(`SELECT ${CONNECTOR_COLUMNS} FROM connectors WHERE id = $1 AND ${LIVE_CLIENT}`, [id]);
    return rows[0] && toConnector(rows[0]);
  }

  async listConnectors(tenant: Tenant, options: ListConnectorsOptions = {}): Promise<ConnectorRow[]> {
    const { rows } = await this.pool.query<ConnectorDbRow>(
      `SELECT ${CONNECTOR_COLUMNS} FROM connectors
        WHERE client_id = $1 AND external_user_id = $2 AND ($3::text IS NULL OR connector_type = $3) AND ${LIVE_CLIENT}
        ORDER BY created_at DESC, seq DESC`,
      [tenant.clientId, tenant.externalUserId, options.connector_type ?? null],
    );
    return rows.map(toConnector);
  }

  async updateConnector(tenant: Tenant, id: string, patch: ConnectorPatch): Promise<ConnectorRow | undefined> {
    const values: unknown[] = [...tenantValues(tenant, id), new Date(this.clock.now()).toISOString()];
    const sets = ['updated_at = $4'];
    for (const { column, value } of patchColumns(patch)) {
      values.push(value);
      sets.push(`${column} = $${values.length}${column === 'config' ? '::jsonb' : ''}`);
      if (column === 'credentials_ciphertext') sets.push('credentials_version = credentials_version + 1', AUTH_ACTIVE);
    }
    // The UPDATE waits on the row lock of a credentials lock in progress, so a refresh in flight
    // cannot overwrite credentials replaced here.
    return this.transaction(async (client) => {
      const { rows } = await client.query<ConnectorDbRow>(
        `UPDATE connectors SET ${sets.join(', ')} WHERE ${TENANT_CONNECTOR} RETURNING ${CONNECTOR_COLUMNS}`,
        values,
      );
      if (rows[0]) await raiseTenancyVersion(client);
      return rows[0] && toConnector(rows[0]);
    });
  }

  async deleteConnector(tenant: Tenant, id: string): Promise<boolean> {
    return this.transaction(async (client) => {
      const { rowCount } = await client.query(`DELETE FROM connectors WHERE ${TENANT_CONNECTOR}`, tenantValues(tenant, id));
      if (rowCount !== 1) return false;
      await client.query('DELETE FROM search_records WHERE connector_id = $1', [id]);
      await client.query('DELETE FROM sync_state WHERE connector_id = $1', [id]);
      await this.jobs.delete(client, id);
      await raiseTenancyVersion(client);
      return true;
    });
  }

  async tenantSyncStates(tenant: Tenant, connectorId: string): Promise<SyncState[] | undefined> {
    // One statement: the LEFT JOIN keeps the tenant's connector row even when it has no state yet
    // (sync_state has no `id` column, so TENANT_CONNECTOR's names stay unambiguous).
    const { rows } = await this.pool.query(
      `SELECT s.connector_id, s.entity, s.status, s.mode, s.records, s.generation::float8 AS generation, s.started_at, s.finished_at,
         s.last_success_at, s.last_error, s.cursor, s.last_full_at, s.value_types
       FROM connectors LEFT JOIN sync_state s ON s.connector_id = connectors.id
       WHERE ${TENANT_CONNECTOR} ORDER BY s.entity`,
      tenantValues(tenant, connectorId),
    );
    if (rows.length === 0) return undefined;
    return toSyncStates(rows.filter((row) => row.entity !== null));
  }

  async tenantSyncJob(tenant: Tenant, connectorId: string): Promise<SyncJob | undefined> {
    return (await this.owns(tenant, connectorId)) ? this.jobs.get(connectorId) : undefined;
  }

  async tenantScheduleSync(tenant: Tenant, connectorId: string, options: ScheduleSyncOptions): Promise<boolean> {
    if (!(await this.owns(tenant, connectorId))) return false;
    await this.jobs.schedule(connectorId, options);
    return true;
  }

  async tenantOwnsConnector(tenant: Tenant, connectorId: string): Promise<boolean> {
    return this.owns(tenant, connectorId);
  }

  private async owns(tenant: Tenant, connectorId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`SELECT 1 FROM connectors WHERE ${TENANT_CONNECTOR}`, tenantValues(tenant, connectorId));
    return rowCount === 1;
  }

  /** One transaction per batch (postgres-record-writes.ts). */
  async writeRecords(connectorId: string, entity: string, generation: number, records: SyncedRecord[]): Promise<void> {
    await upsertPostgresRecords(this.pool, { connectorId, entity, generation }, records);
  }

  async removeStaleRecords(connectorId: string, entity: string, generation: number): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND sync_generation < $3', [
      connectorId,
      entity,
      generation,
    ]);
    return rowCount ?? 0;
  }

  async saveSyncState(state: SyncState): Promise<void> {
    // The ?? defaults (the column defaults) serve callers written before incremental sync.
    await this.pool.query(
      `INSERT INTO sync_state (connector_id, entity, status, mode, records, generation, started_at, finished_at, last_success_at, last_error,
         cursor, last_full_at, value_types)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
       ON CONFLICT (connector_id, entity) DO UPDATE SET status = excluded.status, mode = excluded.mode, records = excluded.records,
         generation = excluded.generation, started_at = excluded.started_at, finished_at = excluded.finished_at,
         last_success_at = excluded.last_success_at, last_error = excluded.last_error, cursor = excluded.cursor,
         last_full_at = excluded.last_full_at, value_types = excluded.value_types`,
      [
        state.connector_id,
        state.entity,
        state.status,
        state.mode ?? 'full',
        state.records,
        state.generation,
        state.started_at,
        state.finished_at,
        state.last_success_at,
        state.last_error,
        state.cursor ?? null,
        state.last_full_at ?? null,
        state.value_types ? JSON.stringify(state.value_types) : null,
      ],
    );
  }

  async syncStates(connectorId: string): Promise<SyncState[]> {
    const { rows } = await this.pool.query(
      `SELECT connector_id, entity, status, mode, records, generation::float8 AS generation, started_at, finished_at, last_success_at,
         last_error, cursor, last_full_at, value_types
       FROM sync_state WHERE connector_id = $1 ORDER BY entity`,
      [connectorId],
    );
    return toSyncStates(rows);
  }

  async scheduleSync(connectorId: string, options: ScheduleSyncOptions): Promise<void> {
    await this.jobs.schedule(connectorId, options);
  }

  async claimSyncJob(owner: string, leaseMs: number, connectorId?: string): Promise<SyncJob | undefined> {
    return this.jobs.claim(owner, leaseMs, connectorId);
  }

  async renewSyncLease(connectorId: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.jobs.renew(connectorId, owner, leaseMs);
  }

  async releaseSyncJob(connectorId: string, owner: string, options: ReleaseSyncJobOptions): Promise<boolean> {
    return this.jobs.release(connectorId, owner, options);
  }

  async syncJob(connectorId: string): Promise<SyncJob | undefined> {
    return this.jobs.get(connectorId);
  }

  async listSyncJobs(): Promise<SyncJob[]> {
    return this.jobs.list();
  }

  async syncFreshness(): Promise<SyncFreshness[]> {
    const { rows } = await this.pool.query<{ connector_type: string; synced_at: Date }>(
      `SELECT connector_type, min(coalesce(s.last_success_at, connectors.created_at)) AS synced_at
       FROM connectors LEFT JOIN sync_state s ON s.connector_id = connectors.id
       WHERE ${LIVE_CLIENT} GROUP BY connector_type ORDER BY connector_type`,
    );
    return rows.map((row) => ({ connector_type: row.connector_type, synced_at: row.synced_at.toISOString() }));
  }

  recordReader(): RecordReader {
    return { dialect: 'postgres', pool: this.pool };
  }

  connectRecords(): ConnectRecords {
    return new PostgresConnectRecords(this.pool, this.clock);
  }

  rateSlots(connectorId: string): StoredRateSlots {
    return new PostgresRateSlots(this.pool, connectorId);
  }

  tenancyMark(): Promise<number> {
    return this.tenancy.current();
  }

  /** Runs `fn` in a transaction; the tenancy mark moves after every commit (cheap: this process's own writes are seen at once, before any read). */
  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await checkOut(this.pool);
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      this.tenancy.bump();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      checkIn(client);
    }
  }

  async markNeedsReauth(connectorId: string, reason: string): Promise<void> {
    await this.transaction(async (client) => {
      const { rows } = await client.query<EventConnector & { auth_state: string }>(
        `SELECT id, client_id, external_user_id, connector_type, auth_state FROM connectors WHERE id = $1 AND ${LIVE_CLIENT} FOR UPDATE`,
        [connectorId],
      );
      await client.query(
        `UPDATE connectors SET auth_state = 'needs_reauth', auth_reason = $2,
           auth_state_at = CASE WHEN auth_state = 'needs_reauth' THEN auth_state_at ELSE $3 END WHERE id = $1`,
        [connectorId, reason.slice(0, 500), new Date(this.clock.now()).toISOString()],
      );
      // Once per loss of the grant: calls failing again while it is lost raise no new event.
      const before = rows[0];
      if (before?.auth_state === 'active')
        await this.webhooks.emitWith(client, before, { type: 'connector.reauthorization_required', data: { reason: reason.slice(0, 500) } });
      await raiseTenancyVersion(client);
    });
  }

  async clearNeedsReauth(connectorId: string): Promise<void> {
    await this.transaction(async (client) => {
      const { rowCount } = await client.query(`UPDATE connectors SET ${AUTH_ACTIVE} WHERE id = $1 AND auth_state <> 'active'`, [connectorId]);
      if (rowCount) await raiseTenancyVersion(client);
    });
  }

  async countNeedsReauth(): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ connector_type: string; count: number }>(
      `SELECT connector_type, count(*)::int AS count FROM connectors WHERE auth_state = 'needs_reauth' AND ${LIVE_CLIENT} GROUP BY connector_type`,
    );
    return Object.fromEntries(rows.map((row) => [row.connector_type, row.count]));
  }

  async readCredentials(connectorId: string): Promise<StoredCredentials | undefined> {
    const { rows } = await this.pool.query<StoredCredentials>(
      'SELECT credentials_ciphertext AS ciphertext, credentials_version AS version FROM connectors WHERE id = $1',
      [connectorId],
    );
    return rows[0];
  }

  /**
   * A transaction holding the connector's row with `SELECT ... FOR UPDATE` while `fn` runs: other
   * processes block on the same row until commit. The in-process queue in front keeps concurrent
   * callers here from each taking a pooled connection only to wait on the same row.
   */
  withCredentialsLock<T>(connectorId: string, fn: (current: StoredCredentials) => Promise<CredentialsLockResult<T>>): Promise<CredentialsLockResult<T>> {
    return this.locks.run(connectorId, async () => {
      const client = await checkOut(this.pool);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        try {
          const { rows } = await client.query<StoredCredentials>(
            `SELECT credentials_ciphertext AS ciphertext, credentials_version AS version
              FROM connectors WHERE id = $1 FOR UPDATE`,
            [connectorId],
          );
          const current = rows[0];
          if (!current) throw new ConnectorNotFoundError(`No connector ${connectorId}.`);
          const result = await fn(current);
          if (result.ciphertext !== undefined) {
            await client.query(
              `UPDATE connectors SET credentials_ciphertext = $2, credentials_version = credentials_version + 1, ${AUTH_ACTIVE} WHERE id = $1`,
              [connectorId, result.ciphertext],
            );
            if (result.emit) await this.webhooks.emit(connectorId, result.emit, client);
            await raiseTenancyVersion(client);
          }
          await client.query('COMMIT');
          this.tenancy.bump();
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
          throw error;
        }
      } finally {
        checkIn(client, broken);
      }
    });
  }

  onClose(task: () => Promise<void>): void {
    this.closing.push(task);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.closing.splice(0).map((task) => task()));
    await this.pool.end();
  }
}

function first<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new InternalError('INSERT ... RETURNING returned no row.');
  return row;
}

function tenantValues(tenant: Tenant, id: string): [string, string, string] {
  return [id, tenant.clientId, tenant.externalUserId];
}

/** Sync state rows with their times as ISO text, as the SQLite store keeps them (value_types left out where none were discovered). */
function toSyncStates(rows: Array<Record<string, unknown>>): SyncState[] {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return rows.map(({ value_types, ...r }) => ({
    ...r,
    ...(value_types === null || value_types === undefined ? {} : { value_types }),
    started_at: iso(r.started_at) as string,
    finished_at: iso(r.finished_at),
    last_success_at: iso(r.last_success_at),
    last_full_at: iso(r.last_full_at),
  })) as SyncState[];
}

function toConnector(row: ConnectorDbRow): ConnectorRow {
  return {
    ...row,
    auth_state_at: row.auth_state_at ? row.auth_state_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toClient(row: ClientDbRow): PlatformClient {
  return {
    client_id: row.client_id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}
