import { dirname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock/index.js';
import { InvalidRequestError } from '../errors.js';
import { createCipher, loadOrCreateKey, openStore, type Store } from '../store/index.js';
import { createHostedServer, type HostedSyncOptions, type HostedWebhookOptions } from './server.js';
import type { OAuthApp } from './server-options.js';

/** How to run the hosted service (the CLI fills this from flags and ENGINE_* variables). */
export interface HostedServiceOptions {
  databaseUrl: string;
  port: number;
  host?: string;
  /** ENGINE_SECRET; without it a key file in the data directory is used (created on first start). */
  secret?: string;
  upstreams?: Record<string, string>;
  /** Extra origins per connector type its requests may reach (sandbox second hosts, ENGINE_ALLOW_ORIGINS_<TYPE>). */
  allowOrigins?: Record<string, string[]>;
  logger?: boolean | Record<string, unknown>;
  bodyLimit?: number;
  clientRateLimits?: boolean;
  /** The most connectors one end user of one platform client may hold (default 100). */
  maxConnectorsPerUser?: number;
  /** The deadline of an execute whose body names no `timeout_ms` (ENGINE_EXECUTE_DEADLINE_MS; default 30 s). */
  executeDeadlineMs?: number;
  sync?: HostedSyncOptions;
  /** OAuth apps the Connect page uses before the stored ones (`serve --sandbox`: the fakes' apps). */
  oauthApps?: Record<string, OAuthApp>;
  webhooks?: HostedWebhookOptions;
  /** Where the service and its store read time and schedule waits (default: real time); tests pass a manual clock. */
  clock?: Clock;
}

/** A running service. */
export interface HostedService {
  url: string;
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

/**
 * Why a server could not listen, said so an operator can act on it: a port in use or not
 * allowed is a setting to change, not an internal error.
 */
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE')
    return new InvalidRequestError(
      `cannot listen on ${where}: the port is already in use; stop the other server or choose another port (--port or ENGINE_PORT)`,
      { details: [{ path: '--port', message: 'is already in use' }] },
    );
  if (code === 'EACCES')
    return new InvalidRequestError(`cannot listen on ${where}: permission denied; ports below 1024 need privileges`, {
      details: [{ path: '--port', message: 'is not allowed' }],
    });
  if (code === 'EADDRNOTAVAIL')
    return new InvalidRequestError(`cannot listen on ${where}: this machine has no such address (ENGINE_HOST)`, {
      details: [{ path: 'ENGINE_HOST', message: 'is not an address of this machine' }],
    });
  return error;
}

/** The folder that holds the key file: the SQLite file's folder, or ./data for PostgreSQL. */
export function dataDirectory(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:') && !databaseUrl.includes(':memory:')) return dirname(resolve(databaseUrl.slice('sqlite:'.length)));
  return resolve('data');
}

/**
 * Opens the store (creating and migrating it on first start), loads or creates the service key,
 * and serves the hosted API until closed.
 */
export async function startHostedService(options: HostedServiceOptions): Promise<HostedService> {
  const store = await openStore(options.databaseUrl, options.clock ? { clock: options.clock } : {});
  try {
    const key = await loadOrCreateKey({ ...(options.secret ? { secret: options.secret } : {}), dataDir: dataDirectory(options.databaseUrl) });
    const app = createHostedServer({
      store,
      cipher: createCipher(key),
      serviceKey: key,
      ...(options.upstreams ? { upstreams: options.upstreams } : {}),
      ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
      ...(options.logger !== undefined ? { logger: options.logger } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      ...(options.clientRateLimits === false ? { clientRateLimits: false } : {}),
      ...(options.sync ? { sync: options.sync } : {}),
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      ...(options.maxConnectorsPerUser !== undefined ? { maxConnectorsPerUser: options.maxConnectorsPerUser } : {}),
      ...(options.executeDeadlineMs !== undefined ? { executeDeadlineMs: options.executeDeadlineMs } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.oauthApps ? { oauthApps: options.oauthApps } : {}),
    });
    const host = options.host ?? '127.0.0.1';
    try {
      await app.listen({ port: options.port, host });
    } catch (error) {
      await app.close();
      throw listenFailure(error, host, options.port);
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return {
      url,
      app,
      store,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
