/**
 * connector-engine: run named actions on entities of third-party APIs through YAML manifests.
 * This file is the library's only door.
 */
export { connect, type HostedConnectOptions, type LocalConnectOptions } from './connect.js';
export { HostedConnection, type HostedCallOptions, type HostedOptions, type HostedSyncStatus } from './client/index.js';
export type { StoreOption } from './sync/index.js';
export {
  startAuthorization,
  finishAuthorization,
  type AuthorizationStart,
  type StartAuthorizationOptions,
  type FinishAuthorizationOptions,
  type CallbackInput,
} from './auth/index.js';
export {
  checkConnectorInput,
  Connection,
  DownloadStream,
  type CallOptions,
  type ConnectOptions,
  type CopySyncOptions,
  type CredentialsCheckResult,
  type ExecuteResult,
  type ListResult,
  type RecordResult,
  type RecordData,
  type ResultMeta,
} from './runtime/index.js';
export { parseManifest, loadManifestFile, shippedManifests, findManifest } from './manifest/index.js';
export type { Manifest, LoadedManifest } from './manifest/index.js';
export * from './errors.js';
export { addressRange, DEFAULT_DEADLINE_MS, type RateSlots, type SlotTake, type Traffic } from './http/index.js';
export type { SearchResult, SearchHit } from './search/index.js';
export type * from './typed/index.js';
export { openStore, type Store, type SyncState } from './store/index.js';
export type { SyncProgress } from './sync/index.js';
export { createManualClock, systemClock, type Clock, type ClockTimer, type ManualClock, type ScheduledWait } from './clock/index.js';
export { verifyWebhookSignature, type VerifyOptions, type WebhookHeaders } from './webhooks/index.js';
