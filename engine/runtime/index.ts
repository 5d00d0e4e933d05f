export { openConnection, checkConnectorInput, type ConnectOptions, type CheckedConnectorInput } from './connect.js';
export { trustedOrigins } from './trusted-origins.js';
export { checkCallOptions, deadlineProblem, type CallOptionRules, type CallOptions } from './call-options.js';
export { Connection, type AttachedCopy, type CopySyncOptions, type ExecuteResult, type ListResult, type RecordResult } from './connection.js';
export { compileConnector, type CompiledConnector, type CompiledAction } from './compiled-connector.js';
export type { RecordData, ResultMeta } from './extract.js';
export { DownloadStream } from './download.js';
export { PageLoopGuard, pagedOrderOf, pagingOf, unpageableReason, type PagedOrder, type PageToken } from './paging/index.js';
export type { CredentialsCheckResult } from './refused-credentials.js';
