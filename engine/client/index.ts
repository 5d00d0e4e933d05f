export { HostedConnection, type HostedCallOptions, type HostedOptions, type HostedSyncStatus } from './hosted-connection.js';
