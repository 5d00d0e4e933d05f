import type { RefreshCoordinator } from '../auth/index.js';
import type { UpstreamRequest } from '../http/index.js';
import { connect, type Connection } from '../runtime/index.js';
import type { Cipher, ConnectorRow, Store } from '../store/index.js';

interface Entry {
  version: number;
  connection: Connection;
}

type Credentials = Record<string, unknown>;

function expired(credentials: Credentials): boolean {
  const at = Date.parse(String(credentials.expires_at ?? ''));
  return Number.isNaN(at) ? false : at <= Date.now() + 30_000;
}

/**
 * The live connections of stored connectors, one per connector, rebuilt when its stored
 * credentials change. Refreshes go through the store's credentials lock, so that several server
 * processes on one database refresh an OAuth grant once and all use the result.
 */
export class ConnectorPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: Store,
    private readonly cipher: Cipher,
    private readonly upstreams: Record<string, string>,
    private readonly clientRateLimits = true,
    /** Extra origins per connector type, trusted exactly as named (never from a tenant). */
    private readonly allowOrigins: Record<string, string[]> = {},
    /** Told of every upstream request of every connection, with its connector type (metrics). */
    private readonly onUpstreamRequest?: (type: string, request: UpstreamRequest) => void,
  ) {}

  /** The connection of a connector the caller already resolved through a user-scoped read. */
  async connection(row: ConnectorRow): Promise<Connection> {
    const cached = this.entries.get(row.id);
    if (cached && cached.version >= row.credentials_version) return cached.connection;
    const stored = await this.store.readCredentials(row.id);
    if (!stored) throw new Error(`connector ${row.id} has no stored credentials`);
    const credentials = JSON.parse(this.cipher.decrypt(stored.ciphertext)) as Credentials;
    const entry: Entry = { version: stored.version, connection: undefined as unknown as Connection };
    const baseUrl = this.upstreams[row.connector_type];
    const allowOrigins = this.allowOrigins[row.connector_type];
    entry.connection = connect(row.connector_type, {
      credentials,
      config: row.config,
      ...(baseUrl ? { baseUrl } : {}),
      ...(allowOrigins?.length ? { allowOrigins } : {}),
      ...(this.clientRateLimits ? {} : { rateLimit: false as const }),
      refreshCoordinator: this.coordinator(row.id, entry),
      ...(this.onUpstreamRequest ? { onUpstreamRequest: (request: UpstreamRequest) => this.onUpstreamRequest?.(row.connector_type, request) } : {}),
    });
    this.entries.set(row.id, entry);
    return entry.connection;
  }

  /** Forgets a connector's connection (after an update or a delete). */
  forget(id: string): void {
    this.entries.delete(id);
  }

  private coordinator(id: string, entry: Entry): RefreshCoordinator {
    return {
      refresh: async (stale, run) => {
        const outcome = await this.store.withCredentialsLock(id, async (current) => {
          const stored = JSON.parse(this.cipher.decrypt(current.ciphertext)) as Credentials;
          const someoneRefreshed = stored.access_token !== undefined && stored.access_token !== stale.access_token && !expired(stored);
          if (someoneRefreshed) return { credentials: stored, refreshed: false, version: current.version };
          // Refresh from the stored set: with single-use refresh tokens only the newest one works.
          const next = await run(stored);
          return { ciphertext: this.cipher.encrypt(JSON.stringify(next)), credentials: next, refreshed: true, version: current.version + 1 };
        });
        entry.version = outcome.version;
        return { credentials: outcome.credentials, refreshed: outcome.refreshed };
      },
    };
  }
}
