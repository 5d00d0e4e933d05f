import { connect as connectInProcess, type Connection, type ConnectOptions } from '../runtime/index.js';
import { HostedConnection, type HostedOptions } from './hosted-connection.js';

/** Options of `connect` in hosted mode. */
export interface HostedConnectOptions {
  hosted: HostedOptions;
}

/**
 * Opens a connector: in this process with credentials (open-source mode), or through the hosted
 * service (`{ hosted: { baseUrl, externalUserId, clientId, clientSecret } }`), with the same
 * `execute`, `records` and `download` either way.
 */
export function connect(type: string, options: HostedConnectOptions): HostedConnection;
export function connect(type: Parameters<typeof connectInProcess>[0], options: ConnectOptions): Connection;
export function connect(type: Parameters<typeof connectInProcess>[0], options: ConnectOptions | HostedConnectOptions): Connection | HostedConnection {
  if ('hosted' in options && options.hosted) {
    if (typeof type !== 'string') throw new TypeError('hosted connections name a connector type');
    return new HostedConnection(type, options.hosted);
  }
  return connectInProcess(type, options as ConnectOptions);
}
