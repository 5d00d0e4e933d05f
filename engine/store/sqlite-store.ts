import type { ConnectRecords } from './connect-records.js';
import { SqliteConnectRecords } from './sqlite-connect-records.js';
import { systemClock, type Clock } from '../clock/index.js';
import { dirname } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ConnectorNotFoundError, InternalError } from '../errors.js';
import { newId } from './ids.js';
import { patchColumns } from './patch-columns.js';
import { registerSearchFunctions } from './strict-number.js';
import { ensurePrivateDirectory, ensurePrivateFile } from './private-files.js';
import { KeyedMutex } from './keyed-mutex.js';
import { SqliteLease } from './sqlite-lease.js';
import { SqliteRateSlots } from './sqlite-rate-slots.js';
import { storableJson } from './storable-json.js';
import { migrateSqlite } from './sqlite-migrations.js';
import { SqliteSyncJobs } from './sqlite-sync-jobs.js';
import { SqliteWebhooks } from './sqlite-webhooks.js';
import { prepareRecordWrites, type RecordTarget, type SerializedRecord, type SqliteRecordWrites } from './sqlite-record-writes.js';
import { SqliteWriteThread, writeWorkerFile } from './sqlite-write-thread.js';
import { ChunkSizer, runYieldingChunks, SERIALIZE_SLICE, slices, type ChunkBudget } from './timed-chunks.js';
import { announceWrites, WriteIntent } from './write-intent.js';
import { limitReached, notRevoked } from './tenant-errors.js';
import type { EventConnector } from './webhook-outbox.js';
import type { ConnectorEvent } from './webhook-types.js';
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

/** The path that keeps an SQLite database in memory (tests). */
export const SQLITE_MEMORY = ':memory:';

const BUSY_TIMEOUT_MS = 5_000;
/** SQLite's default wal_autocheckpoint (pages of the write-ahead log). */
const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1000;
const CONNECTOR_COLUMNS =
  'id, client_id, external_user_id, connector_type, name, config, auth_scheme, credentials_version, auth_state, auth_state_at, auth_reason, created_at, updated_at';
/** A connector row is reachable only while its platform client is not revoked. */
const LIVE_CLIENT = 'EXISTS (SELECT 1 FROM platform_clients p WHERE p.client_id = connectors.client_id AND p.revoked_at IS NULL)';
/** New credentials end a 'needs_reauth' state (SQLite's clock as ISO text, like the JS clock's). */
const AUTH_ACTIVE = `auth_state = 'active', auth_reason = NULL,
  auth_state_at = CASE WHEN auth_state = 'active' THEN auth_state_at ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END`;
/** The tenant's own, live connector: named parameters @id, @client, @user. */
const TENANT_CONNECTOR = `id = @id AND client_id = @client AND external_user_id = @user AND ${LIVE_CLIENT}`;
const CLIENT_COLUMNS = 'client_id, name, created_at, revoked_at';
const SYNC_STATE_COLUMNS =
  'connector_id, entity, status, mode, records, generation, started_at, finished_at, last_success_at, last_error, cursor, last_full_at, value_types';

type ConnectorDbRow = Omit<ConnectorRow, 'config'> & { config: string };

/**
 * Copy writes on the store's own thread (an in-memory database has no write thread) hold the
 * event loop for about this long per transaction, then yield to it.
 */
const LOOP_CHUNK_BUDGET: ChunkBudget = { budgetMs: 4, maxItems: 64 };

/**
 * Opens (creating the file and its folder on first use, owner-only: 0600 in a 0700 folder) and
 * migrates an SQLite store. WAL mode lets readers proceed while one writer writes; the busy
 * timeout makes another process's short write wait instead of failing.
 */
export function openSqliteStore(path: string, clock: Clock = systemClock, writeThreadPriority: 'low' | 'normal' = 'low'): Store {
  if (path !== SQLITE_MEMORY) {
    ensurePrivateDirectory(dirname(path));
    ensurePrivateFile(path);
  }
  const db = new Database(path);
  const writeWorker = path === SQLITE_MEMORY ? undefined : writeWorkerFile();
  const intent = new WriteIntent();
  // Before anything prepares a statement: every write of this connection then lets the write thread step aside.
  if (writeWorker) announceWrites(db, intent);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== SQLITE_MEMORY) db.pragma('journal_mode = WAL');
    // A commit that finds the log past its connection's limit copies it into the database first
    // (15 ms and more, measured during a pass). The write thread commits nearly all the data and
    // keeps SQLite's default limit, so it does that work; this connection, whose waits are the
    // event loop's, only does it after ten times as much log without a pass.
    if (writeWorker) db.pragma(`wal_autocheckpoint = ${10 * SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
    db.pragma('foreign_keys = ON');
    registerSearchFunctions(db);
    migrateSqlite(db);
    return new SqliteStore(
      db,
      path === SQLITE_MEMORY ? undefined : path,
      writeWorker
        ? new SqliteWriteThread(path, writeWorker, { busyTimeoutMs: BUSY_TIMEOUT_MS, intent, lowPriority: writeThreadPriority === 'low' })
        : undefined,
      clock,
    );
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The embedded store. better-sqlite3 answers synchronously; the methods are async only to share
 * the `Store` interface with PostgreSQL.
 */
class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private readonly locks = new KeyedMutex();
  private readonly closing: Array<() => Promise<void>> = [];
  private readonly lease: SqliteLease;
  private readonly jobs: SqliteSyncJobs;
  readonly webhooks: SqliteWebhooks;
  private readonly stmt: ReturnType<typeof prepareStatements>;
  /** The copy's writes on this connection, used when there is no write thread. */
  private readonly recordWrites: SqliteRecordWrites;
  /** See tenancyMark: this connection's own tenancy writes, and the data_version last seen. */
  private mark = 0;
  private dataVersion = -1;
  /** Whether data_version was read in this event-loop turn (tenancyMark); cleared in the turn's check phase. */
  private versionReadThisTurn = false;
  private readonly endTurn = (): void => {
    this.versionReadThisTurn = false;
  };
  /** The pace of those writes, kept from batch to batch. */
  private readonly loopSizer = new ChunkSizer(LOOP_CHUNK_BUDGET);

  constructor(
    private readonly db: Database.Database,
    /** The database file; undefined for an in-memory database, which lives in this connection only. */
    private readonly file: string | undefined,
    private readonly writes?: SqliteWriteThread,
    private readonly clock: Clock = systemClock,
  ) {
    this.lease = new SqliteLease(db, clock);
    this.jobs = new SqliteSyncJobs(db, clock);
    this.webhooks = new SqliteWebhooks(db, clock);
    this.stmt = prepareStatements(db);
    this.recordWrites = prepareRecordWrites(db);
  }

  async createClient(input: NewPlatformClient): Promise<PlatformClient> {
    const now = new Date(this.clock.now()).toISOString();
    return this.stmt.insertClient.get(newId('cli_'), input.name, input.secretHash, now) as PlatformClient;
  }

  async findClient(clientId: string): Promise<PlatformClientRecord | undefined> {
    return this.stmt.findClient.get(clientId) as PlatformClientRecord | undefined;
  }

  async listClients(): Promise<PlatformClient[]> {
    return this.stmt.listClients.all() as PlatformClient[];
  }

  async revokeClient(clientId: string): Promise<boolean> {
    const revoke = this.db.transaction(() => {
      if (this.stmt.revokeClient.run(new Date(this.clock.now()).toISOString(), clientId).changes !== 1) return false;
      this.stmt.deleteClientJobs.run(clientId);
      return true;
    });
    return this.changedTenancy(revoke.immediate());
  }

  async purgeClientConnectors(clientId: string): Promise<number> {
    const purge = this.db.transaction(() => {
      const client = this.stmt.findClient.get(clientId) as PlatformClientRecord | undefined;
      if (!client?.revoked_at) throw notRevoked(clientId);
      const ids = this.stmt.clientConnectorIds.all(clientId) as string[];
      for (const id of ids) this.removeConnectorData(id);
      return this.stmt.deleteClientConnectors.run(clientId).changes;
    });
    return this.changedTenancy(purge.immediate());
  }

  async createConnector(input: NewConnector, options: CreateConnectorOptions = {}): Promise<ConnectorRow> {
    const create = this.db.transaction(() => {
      const { clientId: client, externalUserId: user } = input.tenant;
      if (options.maxPerTenant !== undefined) {
        const held = this.stmt.countTenantConnectors.get({ client, user }) as number;
        if (held >= options.maxPerTenant) throw limitReached(user, options.maxPerTenant);
      }
      const row = this.stmt.insertConnector.get({
        id: newId('conn_'),
        client_id: client,
        external_user_id: user,
        connector_type: input.connector_type,
        name: input.name ?? null,
        config: JSON.stringify(input.config),
        auth_scheme: input.auth_scheme,
        credentials_ciphertext: input.credentials_ciphertext,
        now: new Date(this.clock.now()).toISOString(),
      }) as ConnectorDbRow;
      // In the insert's transaction: a connector is never created without its event (README "Webhooks").
      this.webhooks.emitIn(row, { type: 'connector.created', data: { name: row.name } });
      return row;
    });
    // IMMEDIATE: the write lock is held from the count to the insert, across processes too.
    return toConnector(create.immediate());
  }

  async getConnector(tenant: Tenant, id: string): Promise<ConnectorRow | undefined> {
    const row = this.stmt.getConnector.get(tenantParams(tenant, id)) as ConnectorDbRow | undefined;
    return row && toConnector(row);
  }

  async findConnector(id: string): Promise<ConnectorRow | undefined> {
    const row = this.stmt.findConnector.get(id) as ConnectorDbRow | undefined;
    return row && toConnector(row);
  }

  async listConnectors(tenant: Tenant, options: ListConnectorsOptions = {}): Promise<ConnectorRow[]> {
    const rows = this.stmt.listConnectors.all({
      client: tenant.clientId,
      user: tenant.externalUserId,
      type: options.connector_type ?? null,
    }) as ConnectorDbRow[];
    return rows.map(toConnector);
  }

  async updateConnector(tenant: Tenant, id: string, patch: ConnectorPatch): Promise<ConnectorRow | undefined> {
    if (patch.credentials_ciphertext === undefined) return this.applyPatch(tenant, id, patch);
    // Replacing credentials waits for a lock in progress, as PostgreSQL's row lock makes it wait.
    return this.locks.run(id, async () => {
      const lease = await this.lease.acquire(id);
      if (!lease) return undefined;
      try {
        return this.applyPatch(tenant, id, patch);
      } finally {
        lease.release();
      }
    });
  }

  async deleteConnector(tenant: Tenant, id: string): Promise<boolean> {
    const remove = this.db.transaction(() => {
      if (this.stmt.deleteConnector.run(tenantParams(tenant, id)).changes !== 1) return false;
      this.removeConnectorData(id);
      return true;
    });
    return this.changedTenancy(remove());
  }

  async tenantSyncStates(tenant: Tenant, connectorId: string): Promise<SyncState[] | undefined> {
    // better-sqlite3 is synchronous: the ownership check and the read see the same database.
    if (!this.owns(tenant, connectorId)) return undefined;
    return this.readSyncStates(connectorId);
  }

  async tenantSyncJob(tenant: Tenant, connectorId: string): Promise<SyncJob | undefined> {
    return this.owns(tenant, connectorId) ? this.jobs.get(connectorId) : undefined;
  }

  async tenantScheduleSync(tenant: Tenant, connectorId: string, options: ScheduleSyncOptions): Promise<boolean> {
    const schedule = this.db.transaction(() => {
      if (!this.owns(tenant, connectorId)) return false;
      this.jobs.schedule(connectorId, options);
      return true;
    });
    return schedule.immediate();
  }

  async tenantOwnsConnector(tenant: Tenant, connectorId: string): Promise<boolean> {
    return this.owns(tenant, connectorId);
  }

  /** On the write thread when there is one; otherwise in short transactions that yield to the event loop between them. */
  async writeRecords(connectorId: string, entity: string, generation: number, records: SyncedRecord[]): Promise<void> {
    const target: RecordTarget = { connectorId, entity, generation };
    const now = new Date(this.clock.now()).toISOString();
    const serialized = await serializeRecords(records);
    if (this.writes) await this.writes.upsert(target, now, serialized);
    else await runYieldingChunks(serialized, this.loopSizer, (chunk) => this.recordWrites.upsert(target, now, chunk));
  }

  /** Chunked like writeRecords: one DELETE of a large copy would hold its connection (and the text index) for seconds. */
  async removeStaleRecords(connectorId: string, entity: string, generation: number): Promise<number> {
    const target: RecordTarget = { connectorId, entity, generation };
    if (this.writes) return this.writes.sweep(target);
    return runYieldingChunks(this.recordWrites.staleSeqs(target), this.loopSizer, (chunk) => this.recordWrites.remove(target, chunk));
  }

  async saveSyncState(state: SyncState): Promise<void> {
    this.stmt.saveSyncState.run(withStateDefaults(state));
  }

  async syncStates(connectorId: string): Promise<SyncState[]> {
    return this.readSyncStates(connectorId);
  }

  /** The rows with value_types read back from JSON text (left out where none were discovered). */
  private readSyncStates(connectorId: string): SyncState[] {
    return (this.stmt.syncStates.all(connectorId) as Array<SyncState & { value_types: string | null }>).map(({ value_types, ...state }) =>
      value_types === null ? state : { ...state, value_types: JSON.parse(value_types) as SyncState['value_types'] },
    );
  }

  async scheduleSync(connectorId: string, options: ScheduleSyncOptions): Promise<void> {
    this.jobs.schedule(connectorId, options);
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
    return this.stmt.syncFreshness.all() as SyncFreshness[];
  }

  recordReader(): RecordReader {
    return { dialect: 'sqlite', db: this.db, file: this.file, busyTimeoutMs: BUSY_TIMEOUT_MS };
  }

  rateSlots(connectorId: string): StoredRateSlots {
    return new SqliteRateSlots(this.db, connectorId, this.clock);
  }

  connectRecords(): ConnectRecords {
    return new SqliteConnectRecords(this.db, this.clock);
  }

  async markNeedsReauth(connectorId: string, reason: string): Promise<void> {
    const mark = this.db.transaction(() => {
      const before = this.stmt.eventConnector.get(connectorId) as (EventConnector & { auth_state: string }) | undefined;
      this.stmt.markNeedsReauth.run({ id: connectorId, reason: reason.slice(0, 500), now: new Date(this.clock.now()).toISOString() });
      // Once per loss of the grant: calls failing again while it is lost raise no new event.
      if (before?.auth_state === 'active') this.webhooks.emitIn(before, { type: 'connector.reauthorization_required', data: { reason: reason.slice(0, 500) } });
    });
    mark.immediate();
    this.changedTenancy();
  }

  async clearNeedsReauth(connectorId: string): Promise<void> {
    if (this.stmt.clearNeedsReauth.run(connectorId).changes > 0) this.changedTenancy();
  }

  async countNeedsReauth(): Promise<Record<string, number>> {
    const rows = this.stmt.countNeedsReauth.all() as Array<{ connector_type: string; count: number }>;
    return Object.fromEntries(rows.map((row) => [row.connector_type, row.count]));
  }

  async readCredentials(connectorId: string): Promise<StoredCredentials | undefined> {
    return this.stmt.readCredentials.get(connectorId) as StoredCredentials | undefined;
  }

  withCredentialsLock<T>(connectorId: string, fn: (current: StoredCredentials) => Promise<CredentialsLockResult<T>>): Promise<CredentialsLockResult<T>> {
    return this.locks.run(connectorId, async () => {
      const lease = await this.lease.acquire(connectorId);
      if (!lease) throw new ConnectorNotFoundError(`No connector ${connectorId}.`);
      try {
        const current = this.stmt.readCredentials.get(connectorId) as StoredCredentials | undefined;
        if (!current) throw new ConnectorNotFoundError(`No connector ${connectorId}.`);
        const result = await fn(current);
        if (result.ciphertext !== undefined) {
          const written = this.writeLeased(connectorId, lease.token, result.ciphertext, result.emit);
          this.changedTenancy();
          if (written.changes !== 1) {
            if (this.stmt.exists.get(connectorId) === undefined) {
              throw new ConnectorNotFoundError(`Connector ${connectorId} was deleted while its credentials were locked.`);
            }
            throw new InternalError(`Lost the credentials lock of connector ${connectorId}; the new credentials were not written.`);
          }
        }
        return result;
      } finally {
        lease.release();
      }
    });
  }

  /** Writes credentials under the lease, with the result's event in the same transaction. */
  private writeLeased(connectorId: string, token: string, ciphertext: string, event: ConnectorEvent | undefined): { changes: number } {
    const write = this.db.transaction(() => {
      const written = this.stmt.writeLeasedCredentials.run({ id: connectorId, token, ciphertext });
      const connector = event && written.changes === 1 ? (this.stmt.eventConnector.get(connectorId) as EventConnector | undefined) : undefined;
      if (connector && event) this.webhooks.emitIn(connector, event);
      return written;
    });
    return write.immediate();
  }

  /**
   * data_version moves when another connection commits (other processes, the write thread: then
   * more often than tenancy changes, which only costs the lookups again); it never moves for this
   * connection's own commits, which changedTenancy counts instead, at once.
   *
   * data_version is read at most once per event-loop turn: the requests handled until the
   * turn's check phase (setImmediate) share the first one's read. Why: a read opens and closes a
   * read transaction (two file locks: 4 µs alone, several times that under load), which was once
   * per request. What it changes: a commit of another process is seen by the requests of the
   * turns after the one that read the old version; a request handled in the same turn as the
   * commit may miss it, as if it had committed a moment later (the PostgreSQL path,
   * postgres-tenancy.ts, reads its version row once per turn the same way). A row looked
   * up after a commit the turn's read missed is dropped at the next read (the version moved), so
   * nothing stale outlives the turn.
   */
  tenancyMark(): number {
    if (this.versionReadThisTurn) return this.mark;
    this.versionReadThisTurn = true;
    setImmediate(this.endTurn);
    const version = this.stmt.dataVersion.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.mark++;
    }
    return this.mark;
  }

  /** Moves the tenancy mark after a write of this connection to clients, connectors or credentials; passes `value` through. */
  private changedTenancy<T>(value?: T): T {
    this.mark++;
    return value as T;
  }

  onClose(task: () => Promise<void>): void {
    this.closing.push(task);
  }

  async close(): Promise<void> {
    const closing = this.closing.splice(0);
    await Promise.all(closing.map((task) => task()));
    await this.writes?.close();
    if (this.db.open) this.db.close();
  }

  private owns(tenant: Tenant, connectorId: string): boolean {
    return this.stmt.ownsConnector.get(tenantParams(tenant, connectorId)) !== undefined;
  }

  /** A connector's copy, sync state and job; part of a delete, inside the caller's transaction. */
  private removeConnectorData(id: string): void {
    this.stmt.deleteRecords.run(id);
    this.stmt.deleteSyncStates.run(id);
    this.jobs.delete(id);
  }

  private applyPatch(tenant: Tenant, id: string, patch: ConnectorPatch): ConnectorRow | undefined {
    const sets = ['updated_at = @now'];
    const values: Record<string, unknown> = { ...tenantParams(tenant, id), now: new Date(this.clock.now()).toISOString() };
    for (const { column, value } of patchColumns(patch)) {
      sets.push(`${column} = @${column}`);
      values[column] = value;
      if (column === 'credentials_ciphertext') sets.push('credentials_version = credentials_version + 1', AUTH_ACTIVE);
    }
    const row = this.db.prepare(`UPDATE connectors SET ${sets.join(', ')} WHERE ${TENANT_CONNECTOR} RETURNING ${CONNECTOR_COLUMNS}`).get(values) as
      ConnectorDbRow | undefined;
    this.changedTenancy();
    return row && toConnector(row);
  }
}

/**
 * The batch as JSON texts (storableJson: one stringify per record), a slice at a time with the
 * event loop free in between: a whole batch of large records would hold it for several ms.
 */
async function serializeRecords(records: readonly SyncedRecord[]): Promise<SerializedRecord[]> {
  const out: SerializedRecord[] = [];
  for (const slice of slices(records, SERIALIZE_SLICE)) {
    if (out.length > 0) await nextTurn();
    for (const record of slice) out.push({ id: record.id, data: storableJson(record.data) });
  }
  return out;
}

/** Every fixed statement of the store, prepared once per connection. */
function prepareStatements(db: Database.Database) {
  return {
    insertClient: db.prepare(`INSERT INTO platform_clients (client_id, name, secret_hash, created_at) VALUES (?, ?, ?, ?) RETURNING ${CLIENT_COLUMNS}`),
    findClient: db.prepare(`SELECT ${CLIENT_COLUMNS}, secret_hash FROM platform_clients WHERE client_id = ?`),
    listClients: db.prepare(`SELECT ${CLIENT_COLUMNS} FROM platform_clients ORDER BY created_at DESC, rowid DESC`),
    revokeClient: db.prepare('UPDATE platform_clients SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL'),
    deleteClientJobs: db.prepare('DELETE FROM sync_jobs WHERE connector_id IN (SELECT id FROM connectors WHERE client_id = ?)'),
    clientConnectorIds: db.prepare('SELECT id FROM connectors WHERE client_id = ?').pluck(),
    deleteClientConnectors: db.prepare('DELETE FROM connectors WHERE client_id = ?'),
    countTenantConnectors: db.prepare('SELECT count(*) FROM connectors WHERE client_id = @client AND external_user_id = @user').pluck(),
    insertConnector: db.prepare(`INSERT INTO connectors
      (id, client_id, external_user_id, connector_type, name, config, auth_scheme, credentials_ciphertext, credentials_version,
        created_at, updated_at)
      VALUES (@id, @client_id, @external_user_id, @connector_type, @name, @config, @auth_scheme, @credentials_ciphertext, 1, @now, @now)
      RETURNING ${CONNECTOR_COLUMNS}`),
    getConnector: db.prepare(`SELECT ${CONNECTOR_COLUMNS} FROM connectors WHERE ${TENANT_CONNECTOR}`),
    ownsConnector: db.prepare(`SELECT 1 FROM connectors WHERE ${TENANT_CONNECTOR}`).pluck(),
    findConnector: db.prepare(`SELECT ${CONNECTOR_COLUMNS} FROM connectors WHERE id = ? AND ${LIVE_CLIENT}`),
    listConnectors: db.prepare(`SELECT ${CONNECTOR_COLUMNS} FROM connectors
      WHERE client_id = @client AND external_user_id = @user AND (@type IS NULL OR connector_type = @type) AND ${LIVE_CLIENT}
      ORDER BY created_at DESC, seq DESC`),
    deleteConnector: db.prepare(`DELETE FROM connectors WHERE ${TENANT_CONNECTOR}`),
    deleteRecords: db.prepare('DELETE FROM search_records WHERE connector_id = ?'),
    deleteSyncStates: db.prepare('DELETE FROM sync_state WHERE connector_id = ?'),
    readCredentials: db.prepare('SELECT credentials_ciphertext AS ciphertext, credentials_version AS version FROM connectors WHERE id = ?'),
    writeLeasedCredentials: db.prepare(`UPDATE connectors
      SET credentials_ciphertext = @ciphertext, credentials_version = credentials_version + 1, ${AUTH_ACTIVE}
      WHERE id = @id AND credentials_lock_token = @token`),
    exists: db.prepare('SELECT 1 FROM connectors WHERE id = ?').pluck(),
    eventConnector: db.prepare(`SELECT id, client_id, external_user_id, connector_type, auth_state FROM connectors WHERE id = ? AND ${LIVE_CLIENT}`),
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    markNeedsReauth: db.prepare(`UPDATE connectors SET auth_state = 'needs_reauth', auth_reason = @reason,
      auth_state_at = CASE WHEN auth_state = 'needs_reauth' THEN auth_state_at ELSE @now END WHERE id = @id`),
    clearNeedsReauth: db.prepare(`UPDATE connectors SET ${AUTH_ACTIVE} WHERE id = ? AND auth_state <> 'active'`),
    countNeedsReauth: db.prepare(`SELECT connector_type, count(*) AS count FROM connectors
      WHERE auth_state = 'needs_reauth' AND ${LIVE_CLIENT} GROUP BY connector_type`),
    saveSyncState: db.prepare(`INSERT OR REPLACE INTO sync_state (${SYNC_STATE_COLUMNS})
      VALUES (@connector_id, @entity, @status, @mode, @records, @generation, @started_at, @finished_at, @last_success_at,
        @last_error, @cursor, @last_full_at, @value_types)`),
    syncStates: db.prepare(`SELECT ${SYNC_STATE_COLUMNS} FROM sync_state WHERE connector_id = ? ORDER BY entity`),
    // ISO texts from one clock: text order is time order.
    syncFreshness: db.prepare(`SELECT connector_type, min(coalesce(s.last_success_at, connectors.created_at)) AS synced_at
      FROM connectors LEFT JOIN sync_state s ON s.connector_id = connectors.id
      WHERE ${LIVE_CLIENT} GROUP BY connector_type ORDER BY connector_type`),
  };
}

/**
 * Fills the fields a caller written before incremental sync may leave out (named parameters must
 * all be bound), with the column defaults: a full pass, no cursor, no full pass known.
 */
function withStateDefaults(state: SyncState): Omit<SyncState, 'value_types'> & { value_types: string | null } {
  const valueTypes = state.value_types ? JSON.stringify(state.value_types) : null;
  return { ...state, mode: state.mode ?? 'full', cursor: state.cursor ?? null, last_full_at: state.last_full_at ?? null, value_types: valueTypes };
}

/** The named parameters of TENANT_CONNECTOR. */
function tenantParams(tenant: Tenant, id: string): { id: string; client: string; user: string } {
  return { id, client: tenant.clientId, user: tenant.externalUserId };
}

function toConnector(row: ConnectorDbRow): ConnectorRow {
  return { ...row, config: JSON.parse(row.config) as Record<string, unknown> };
}
