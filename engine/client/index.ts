export { connect, type HostedConnectOptions } from './connect.js';
export { HostedConnection, type HostedOptions } from './hosted-connection.js';
