export { createHostedServer, type HostedServerOptions, type HostedSyncOptions } from './server.js';
export { startHostedService, dataDirectory, type HostedService, type HostedServiceOptions } from './service.js';
export { TokenIssuer, TOKEN_TTL_SECONDS, type TokenScope } from './tokens.js';
export { connectorTypes, type ConnectorTypeDescription } from './connector-types.js';
export { openApiDocument } from './openapi.js';
export { syncOnce, type SyncOnceOptions, type SyncOnceResult } from './sync-once.js';
export { findJsonLimitProblem, JSON_BODY_LIMITS } from './json-limits.js';
export { BatchedLogStream } from './batched-log-stream.js';
