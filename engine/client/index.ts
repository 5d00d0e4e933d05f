export { connect, type HostedConnectOptions, type LocalConnectOptions } from './connect.js';
export type { StoreOption } from './local-copy.js';
export { HostedConnection, type HostedCallOptions, type HostedOptions, type HostedSyncStatus } from './hosted-connection.js';
