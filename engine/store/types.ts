/**
 * The shapes the hosted mode keeps: platform clients (the operator's API callers) and connectors
 * (one end user's configured upstream account, credentials encrypted). Column names match the JSON
 * the hosted API answers with, so the server maps rows to bodies without renaming.
 */
import type { ConnectRecords } from './connect-records.js';

import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { ConnectorEvent, WebhookStore } from './webhook-types.js';

/** Which SQL dialect a store speaks; the search compiler picks its dialect by it. */
export type StoreDialect = 'sqlite' | 'postgres';

/**
 * How a path of an entity's records compares in searches when it is not plain text: the manifest
 * declares it, or a sync pass discovers it from the upstream's property definitions (kept in the
 * entity's sync state).
 */
export type ValueType = 'number' | 'date-time';

/** Value types by field path. */
export type ValueTypes = Readonly<Record<string, ValueType>>;

/**
 * The connection the synchronized copy is read through, for engine/search, which builds on the
 * store: SQLite's own connection (and its file, when there is one, so a search thread can open
 * its own read-only connection), or the PostgreSQL pool.
 */
export type RecordReader =
  { dialect: 'sqlite'; db: BetterSqlite3.Database; file: string | undefined; busyTimeoutMs: number } | { dialect: 'postgres'; pool: pg.Pool };

/** A platform client as the operator sees it; never carries the secret hash. */
export interface PlatformClient {
  client_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

/** A platform client with its secret hash: only what the token endpoint needs to verify a secret. */
export interface PlatformClientRecord extends PlatformClient {
  secret_hash: string;
}

/** What the operator supplies to create a platform client; the secret arrives already hashed. */
export interface NewPlatformClient {
  name: string;
  secretHash: string;
}

/**
 * Who a connector belongs to: the platform client that created it and one end user of that
 * client. Every tenant-facing store call takes one and filters by both in SQL, so client B's token
 * for "user-A" never reaches client A's "user-A" (they are different tenants).
 */
export interface Tenant {
  clientId: string;
  externalUserId: string;
}

/**
 * A connector as the hosted API shows it. It never includes the credentials ciphertext: reading
 * credentials is a separate, deliberate call (`readCredentials`).
 */
export interface ConnectorRow {
  id: string;
  /** The platform client the connector belongs to (with `external_user_id`, its tenant). */
  client_id: string;
  external_user_id: string;
  connector_type: string;
  name: string | null;
  config: Record<string, unknown>;
  auth_scheme: string;
  credentials_version: number;
  /**
   * 'needs_reauth' once the upstream refused the credentials for good (an OAuth grant revoked or
   * spent, a token deleted): the end user must connect again. Back to 'active' when new
   * credentials arrive (PATCH), a refresh succeeds, or a call succeeds after all.
   */
  auth_state: AuthState;
  /** When `auth_state` last changed (null: never). */
  auth_state_at: string | null;
  /** What the upstream said when it refused (redacted), while `auth_state` is 'needs_reauth'. */
  auth_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** Whether a connector's credentials still work, as far as the upstream has told. */
export type AuthState = 'active' | 'needs_reauth';

/** What a create request becomes once the server has checked and encrypted the credentials. */
export interface NewConnector {
  /** The tenant the connector will belong to. */
  tenant: Tenant;
  connector_type: string;
  name?: string | null;
  config: Record<string, unknown>;
  auth_scheme: string;
  credentials_ciphertext: string;
}

/** The fields a PATCH may change; absent fields stay as they are, `name: null` clears the name. */
export interface ConnectorPatch {
  name?: string | null;
  config?: Record<string, unknown>;
  auth_scheme?: string;
  credentials_ciphertext?: string;
}

/** Limits checked atomically with a create. */
export interface CreateConnectorOptions {
  /**
   * The most connectors one tenant may hold: a create that would exceed it fails with
   * CONNECTOR_LIMIT_REACHED and writes nothing, however many creates race.
   */
  maxPerTenant?: number;
}

/** Filters of a connector listing. */
export interface ListConnectorsOptions {
  connector_type?: string;
}

/** A connector's encrypted credentials and their version, which every rewrite increments. */
export interface StoredCredentials {
  ciphertext: string;
  version: number;
}

/**
 * What a function run under the credentials lock may hand back: a new `ciphertext` is written
 * (version + 1) before the lock is released; anything else passes through to the caller.
 */
export type CredentialsLockResult<T> = {
  ciphertext?: string;
  /** An event about the connector written to the webhook outbox with the new ciphertext (in its transaction). */
  emit?: ConnectorEvent;
} & T;

/** One entity's synchronization, as GET .../sync shows it. */
export interface SyncState {
  connector_id: string;
  entity: string;
  status: 'running' | 'succeeded' | 'failed';
  /** Whether the latest pass read everything ('full') or only what changed since `cursor`. */
  mode: 'full' | 'incremental';
  records: number;
  generation: number;
  started_at: string;
  finished_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  /** The high-water mark the next incremental pass starts from; null until a pass has set one. */
  cursor: string | null;
  /** When the last successful full pass finished: the scheduler forces a full pass when it is too old. */
  last_full_at: string | null;
  /**
   * The value types the last successful pass discovered from the upstream (sync plan
   * `discover_fields`): dot path -> type. Absent for entities that discover none.
   */
  value_types?: ValueTypes;
}

/**
 * A connector's sync job: when its next pass is due and who runs the current one. One row per
 * connector, shared by every process of the database, so exactly one process runs a pass at a time.
 * Times are ISO-8601.
 */
export interface SyncJob {
  connector_id: string;
  /** When the next pass should start; a job is claimable once this has passed (and no lease holds it). */
  due_at: string;
  /** Someone asked for a full pass; stays set until a full pass is released as done. */
  full_requested: boolean;
  /** The process running the pass; null when no pass runs. */
  lease_owner: string | null;
  /** The lease runs out then, unless renewed: a crashed runner's job becomes claimable again. */
  lease_until: string | null;
  /** When the running pass was claimed; null when no pass runs. */
  started_at: string | null;
}

/** How `scheduleSync` moves a job's due time. */
export interface ScheduleSyncOptions {
  /** When the next pass should start. */
  dueAt: Date;
  /** Ask for a full pass (never clears an earlier request). */
  full?: boolean;
  /**
   * Run no later than `dueAt`: an earlier due time already set is kept. Asked while a pass runs,
   * it also makes sure another pass follows that one (see `releaseSyncJob`).
   */
  earliest?: boolean;
}

/** What the runner of a pass tells `releaseSyncJob`. */
export interface ReleaseSyncJobOptions {
  /** When the next pass is due (for instance now + the sync interval, or a retry back-off). */
  nextDueAt: Date;
  /** The pass was a successful full pass, which satisfies a pending full request. */
  fullDone: boolean;
}

/** The outcome of asking the database for a rate-limit slot: one was taken, or none is free for at least `waitMs`. */
export type StoredSlotTake = { slot: number } | { waitMs: number };

/**
 * The rate-limit slots of one connector kept in the database, so every process on it keeps to one
 * upstream account's budget. The same contract as the limiter's in-memory slots (http/rate-slots.ts):
 * a taken slot is leased for `holdMs`, a release stamps it with the end of its attempt, and a
 * slot is free once that stamp has left the window.
 */
export interface StoredRateSlots {
  take(requests: number, windowMs: number, holdMs: number): Promise<StoredSlotTake>;
  release(slot: number): Promise<void>;
}

/** A record of the synchronized copy. */
export interface SyncedRecord {
  id: string;
  data: unknown;
}

/**
 * The least recently synchronized connector of a type (live clients only): `synced_at` is the
 * oldest of its entities' last successes, or its creation time while it has no sync state yet or
 * an entity never succeeded.
 */
export interface SyncFreshness {
  connector_type: string;
  /** ISO 8601. */
  synced_at: string;
}

/**
 * The hosted mode's persistence, one interface over SQLite and PostgreSQL. Every connector
 * operation that a tenant can reach takes the tenant (platform client and external user) and
 * filters by both in SQL, and only answers while that client is not revoked, so a caller that
 * forgets a check still cannot touch another tenant's connector.
 */
export interface Store {
  /** The backend behind this store. */
  readonly dialect: StoreDialect;
  /**
   * Webhook endpoints and the outbox of their deliveries. `createConnector` writes
   * connector.created, `markNeedsReauth` connector.reauthorization_required (when the state
   * changes) and `withCredentialsLock` its result's `emit`, each in the transaction of the fact.
   */
  readonly webhooks: WebhookStore;

  /** Registers a platform client; the id is generated ("cli_" + random). */
  createClient(input: NewPlatformClient): Promise<PlatformClient>;
  /** The client with its secret hash, revoked or not (the caller decides what revocation means). */
  findClient(clientId: string): Promise<PlatformClientRecord | undefined>;
  /** Every client, newest first, without secret hashes. */
  listClients(): Promise<PlatformClient[]>;
  /**
   * Marks a client revoked and drops its connectors' sync jobs, so nothing of its tenants runs
   * again; true when this call revoked it, false when unknown or already revoked. Its connectors
   * stay stored (encrypted) but no tenant-facing call, and no sync runner, reaches them again.
   */
  revokeClient(clientId: string): Promise<boolean>;
  /**
   * Deletes every connector of a revoked client with its copies, sync states and jobs (the
   * operator's `clients revoke --purge`); returns how many connectors went. Refuses a client that
   * is not revoked, so a live tenant's data is never purged by mistake.
   */
  purgeClientConnectors(clientId: string): Promise<number>;

  /**
   * Stores a new connector with credentials version 1 and returns it (without the ciphertext).
   * With `maxPerTenant`, the count and the insert are one atomic step: CONNECTOR_LIMIT_REACHED
   * when the tenant already holds that many, whatever other creates run at the same time.
   */
  createConnector(input: NewConnector, options?: CreateConnectorOptions): Promise<ConnectorRow>;
  /** The tenant's connector with that id; another tenant's connector is `undefined`, like an unknown one. */
  getConnector(tenant: Tenant, id: string): Promise<ConnectorRow | undefined>;
  /**
   * A connector by id whatever its tenant: only for the operator's and the sync runner's own work
   * (a sync job names a connector, not a tenant). A connector of a revoked client is `undefined`
   * here too, so no pass runs for it. Tenant-facing routes use `getConnector`.
   */
  findConnector(id: string): Promise<ConnectorRow | undefined>;
  /** The tenant's connectors, newest first, optionally of one type. */
  listConnectors(tenant: Tenant, options?: ListConnectorsOptions): Promise<ConnectorRow[]>;
  /**
   * Applies a patch to the tenant's connector, bumps `updated_at`, and bumps `credentials_version`
   * when the credentials are replaced (waiting for a credentials lock in progress, so a refresh in
   * flight cannot overwrite credentials the user just replaced). `undefined` when not the tenant's.
   */
  updateConnector(tenant: Tenant, id: string, patch: ConnectorPatch): Promise<ConnectorRow | undefined>;
  /**
   * Deletes the tenant's connector with its synchronized copy, sync state and sync job; false when
   * it is not the tenant's (or does not exist).
   */
  deleteConnector(tenant: Tenant, id: string): Promise<boolean>;
  /**
   * The sync state of every entity of the tenant's connector, by entity name; `undefined` when the
   * connector is not the tenant's. One statement joins the tenant's connector, so the hosted API
   * never reads another tenant's state even by a stolen id.
   */
  tenantSyncStates(tenant: Tenant, connectorId: string): Promise<SyncState[] | undefined>;
  /** The sync job of the tenant's connector; `undefined` when none, or when not the tenant's. */
  tenantSyncJob(tenant: Tenant, connectorId: string): Promise<SyncJob | undefined>;
  /**
   * `scheduleSync` for the tenant's connector only (the statement inserts from the tenant's
   * connector row); false, and nothing scheduled, when the connector is not the tenant's.
   */
  tenantScheduleSync(tenant: Tenant, connectorId: string, options: ScheduleSyncOptions): Promise<boolean>;
  /**
   * Whether the connector is the tenant's: what a search of its copy checks just before it runs (a
   * connector never changes tenant, and deleting it deletes its copy in the same transaction).
   */
  tenantOwnsConnector(tenant: Tenant, connectorId: string): Promise<boolean>;

  /**
   * Records that the upstream refused the connector's credentials for good (REAUTH_REQUIRED), with
   * the time and its reason, so the connector shows it until the user connects again.
   */
  markNeedsReauth(connectorId: string, reason: string): Promise<void>;
  /** Back to 'active' (a call succeeded after all); a no-op when the connector is active. */
  clearNeedsReauth(connectorId: string): Promise<void>;
  /** Connectors of live clients that need re-authorization, per connector type (for /metrics). */
  countNeedsReauth(): Promise<Record<string, number>>;

  /**
   * The encrypted credentials of a connector, for the executor after it has resolved the connector
   * through a user-scoped call.
   */
  readCredentials(connectorId: string): Promise<StoredCredentials | undefined>;
  /**
   * Runs `fn` holding an exclusive lock on the connector's credentials, across processes that share
   * the database. `fn` receives the credentials as stored at that moment (re-read under the lock);
   * when it returns a `ciphertext`, that is written with version + 1 before the lock is released.
   * If `fn` throws, nothing is written. This is how one OAuth refresh happens across several server
   * processes: re-read inside the lock, refresh only if the token seen is still the stored one.
   * Throws `ConnectorNotFoundError` when the connector does not exist (or is deleted meanwhile).
   */
  withCredentialsLock<T>(connectorId: string, fn: (current: StoredCredentials) => Promise<CredentialsLockResult<T>>): Promise<CredentialsLockResult<T>>;

  /**
   * Upserts records of one entity into the synchronized copy, stamped with the sync pass
   * (`generation`) that saw them, in short transactions that never hold the event loop for long
   * (a call that fails may have written part of the batch: the upserts are idempotent, and only a
   * complete full pass removes anything).
   */
  writeRecords(connectorId: string, entity: string, generation: number, records: SyncedRecord[]): Promise<void>;
  /** After a full pass: removes the entity's records that pass did not see; returns how many. */
  removeStaleRecords(connectorId: string, entity: string, generation: number): Promise<number>;
  /** Stores one entity's sync state (insert or replace). */
  saveSyncState(state: SyncState): Promise<void>;
  /** The sync state of every entity of a connector, by entity name. */
  syncStates(connectorId: string): Promise<SyncState[]>;

  /**
   * Creates or moves a connector's sync job, so that creating a connector, the API's "sync now" and
   * the interval all go through one queue that every process shares. Without `earliest` the due
   * time becomes `dueAt`; with it, the earlier of the stored due time and `dueAt` (a request never
   * postpones a pass already due sooner). `full` sets `full_requested`, never clears it. Asked with
   * `earliest` while a pass runs, the request is remembered and survives that pass's release.
   */
  scheduleSync(connectorId: string, options: ScheduleSyncOptions): Promise<void>;
  /**
   * Atomically takes one job whose lease is free (never leased, or expired because its runner
   * died), so that processes sharing the database never run the same connector's pass twice at
   * once. Without `connectorId`: the job due soonest among those due now. With it: that connector's
   * job whatever its due time (created if missing), for a pass started by hand. Sets the lease to
   * `owner` until now + `leaseMs` and `started_at` to now; `undefined` when nothing could be taken.
   */
  claimSyncJob(owner: string, leaseMs: number, connectorId?: string): Promise<SyncJob | undefined>;
  /**
   * Extends the lease to now + `leaseMs` while a long pass runs, so it does not expire under a live
   * runner. False when `owner` no longer holds it (another process took the job over after the
   * lease ran out): the runner should then stop writing.
   */
  renewSyncLease(connectorId: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Ends a pass: frees the lease, sets the next due time and clears `full_requested` when
   * `fullDone`. A request made while the pass ran is not lost: a `scheduleSync` with `earliest`
   * during the pass keeps the earlier of its due time and `nextDueAt`, and a `full` request during
   * the pass keeps `full_requested` set even when `fullDone`. False (and nothing changed) when
   * `owner` does not hold the lease.
   */
  releaseSyncJob(connectorId: string, owner: string, options: ReleaseSyncJobOptions): Promise<boolean>;
  /** A connector's sync job, for status answers and tests; `undefined` when none was scheduled. */
  syncJob(connectorId: string): Promise<SyncJob | undefined>;
  /** Every sync job, soonest due first: what the operator looks at to see the queue. */
  listSyncJobs(): Promise<SyncJob[]>;
  /** How stale each connector type's copies are, for the service's lag metric (one row per type with live connectors). */
  syncFreshness(): Promise<SyncFreshness[]>;

  /**
   * A number that moves whenever a platform client, a connector or its credentials may have
   * changed, through this store or any other process on the same database: what lets the hosted
   * service keep the client and connector it looked up until they change, for one cheap check per
   * request instead of the lookups. SQLite reads `PRAGMA data_version` (it moves when another
   * connection commits; read at most once per event-loop turn, see sqlite-store.ts) and counts
   * this connection's own writes, without a promise; PostgreSQL reads the `tenancy_version` row
   * every write raises in its transaction (at most once per turn, see postgres-tenancy.ts). Either
   * way a change committed before a request arrived is seen by that request: a revocation, PATCH
   * or DELETE answered by one process holds in every other at once.
   */
  tenancyMark(): number | Promise<number>;

  /** The connection searches read the synchronized copy through (see RecordReader). */
  recordReader(): RecordReader;

  /**
   * The rate-limit slots of a connector (one upstream account), shared by every process on this
   * database. Slots are created on first use and deleted with the connector; a take for a
   * connector that no longer exists throws CONNECTOR_NOT_FOUND.
   */
  rateSlots(connectorId: string): StoredRateSlots;

  /** The operator's OAuth apps and the Connect page's sessions (connect-records.ts). */
  connectRecords(): ConnectRecords;

  /**
   * Runs `task` when the store closes, before its connections are released: how a part built on
   * the store (a search thread on the same file) ends with it.
   */
  onClose(task: () => Promise<void>): void;

  /** Releases the database connections; the store is unusable afterwards. Safe to call twice. */
  close(): Promise<void>;
}
