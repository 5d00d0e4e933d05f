import { HostedConnection, type HostedOptions } from './client/index.js';
import { findManifest, type LoadedManifest } from './manifest/index.js';
import { openConnection, type Connection, type ConnectOptions } from './runtime/index.js';
import { LocalCopy, type StoreOption } from './sync/index.js';
import type { ConnectionOf, HostedConnectionOf } from './typed/index.js';

/** Options of `connect` in hosted mode. */
export interface HostedConnectOptions {
  hosted: HostedOptions;
}

/** Options of `connect` in open-source mode: the runtime's, plus an optional synchronized copy. */
export interface LocalConnectOptions extends ConnectOptions {
  /**
   * Keeps a synchronized copy for `sync()` and the `search` action: a Store, or a database URL
   * (`sqlite:./data/copy.db`, `postgres://...`) that the connection opens and `close()` closes.
   */
  store?: StoreOption;
  /** The key the copy is kept under in the store (default `local:<type>`); one per upstream account. */
  copyId?: string;
}

/**
 * The library's one door to a connector. Opens it in this process with credentials (open-source mode), or through the hosted
 * service (`{ hosted: { baseUrl, externalUserId, clientId, clientSecret } }`), with the same
 * `execute`, `records` and `download` either way. A shipped type named literally
 * (`connect('<type>', ...)`) gives a connection typed per entity and action (engine/typed/); a
 * `string` or a manifest loaded from a file gives the untyped one.
 */
export function connect<T extends string>(type: T, options: HostedConnectOptions): HostedConnectionOf<T>;
export function connect<T extends string>(type: T, options: LocalConnectOptions): ConnectionOf<T>;
export function connect(type: string | LoadedManifest, options: LocalConnectOptions): Connection;
export function connect(type: string | LoadedManifest, options: LocalConnectOptions | HostedConnectOptions): Connection | HostedConnection {
  if ('hosted' in options && options.hosted) {
    if (typeof type !== 'string') throw new TypeError('hosted connections name a connector type');
    return new HostedConnection(type, options.hosted);
  }
  const { store, copyId, ...runtime } = options as LocalConnectOptions;
  const connection = openConnection(type, runtime);
  if (store !== undefined) {
    const manifest = typeof type === 'string' ? findManifest(type).manifest : type.manifest;
    connection.attachCopy(new LocalCopy(store, manifest, copyId ?? `local:${manifest.type}`, connection));
  }
  return connection;
}
