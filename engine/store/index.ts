/**
 * The hosted mode's storage: one `Store` interface over SQLite (embedded default) and PostgreSQL
 * (scale-out), chosen by URL, plus the secrets it keeps (credential encryption, the key, client
 * secret hashes). This file is the folder's only door.
 */
export { openStore, type OpenStoreOptions } from './open-store.js';
export type {
  AuthState,
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
  StoreDialect,
  StoredCredentials,
  StoredRateSlots,
  StoredSlotTake,
  SyncedRecord,
  SyncJob,
  SyncFreshness,
  SyncState,
  Tenant,
  ValueType,
  ValueTypes,
} from './types.js';
export type { ConnectAuthorization, ConnectRecords, ConnectSessionRow, NewConnectSession, OAuthAppInfo, StoredOAuthApp } from './connect-records.js';
export type {
  AttemptOutcome,
  ClaimedDelivery,
  ConnectorEvent,
  DeliveryFilter,
  DeliveryPage,
  DeliveryStatus,
  NewWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
  WebhookStore,
} from './webhook-types.js';
export { cursorOf, WEBHOOK_EVENT_TYPES } from './webhook-outbox.js';
export { createCipher, type Cipher } from './cipher.js';
export { loadOrCreateKey, KEY_FILE_NAME, type LoadKeyOptions } from './key-file.js';
export { hashSecret, verifySecret } from './secret-hash.js';
export { isStorableText } from './storable-text.js';
export { DecryptionError, StoreSetupError, storeUnavailable } from './store-errors.js';
export {
  recordSchemaDdl,
  recordTableDdl,
  searchIndexDdl,
  searchWordPairsDdl,
  RECORD_PATHS_TABLE,
  RECORD_TABLE,
  RECORD_TEXT_TABLE,
  RECORD_WORDS_TABLE,
  TEXT_ROW_SEQ_BITS,
} from './record-table.js';
export { connectorNotFound } from './tenant-errors.js';
export { isStrictNumber, registerSearchFunctions, strictNumberOf, SQLITE_NUMBER_FUNCTION, STRICT_NUMBER_SOURCE } from './strict-number.js';
export { strictInstantOf, EPOCH_MS_SOURCE, ISO_INSTANT_SOURCE, SQLITE_INSTANT_FUNCTION } from './strict-instant.js';
export { ownerIsGone, processOwner } from './process-owner.js';
export { SQLITE_MIGRATIONS, migrateSqlite } from './sqlite-migrations.js';
export { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-migrations.js';
export { checkIn, checkOut } from './pg-checkout.js';
