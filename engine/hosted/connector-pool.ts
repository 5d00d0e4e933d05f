import { performance } from 'node:perf_hooks';
import type { RefreshCoordinator } from '../auth/index.js';
import { systemClock, type Clock } from '../clock/index.js';
import type { UpstreamRequest } from '../http/index.js';
import { openConnection, type ConnectOptions, type Connection } from '../runtime/index.js';
import type { Cipher, ConnectorRow, Store } from '../store/index.js';

interface Entry {
  version: number;
  /** The row's updated_at when the connection was opened: a PATCH of config (in any process) changes it, not the credentials version. */
  updatedAt: string;
  connection: Connection;
}

type Credentials = Record<string, unknown>;

function expired(credentials: Credentials, now: number): boolean {
  const at = Date.parse(String(credentials.expires_at ?? ''));
  return Number.isNaN(at) ? false : at <= now + 30_000;
}

/** How the pool opens connections: the operator's routing and what it wants to hear about. */
export interface ConnectorPoolOptions {
  /** Upstream base URL per connector type (sandbox or ENGINE_UPSTREAM_<TYPE>); manifests otherwise. */
  upstreams?: Record<string, string>;
  /** The manifests' client-side rate limits and concurrency caps (default on). */
  clientRateLimits?: boolean;
  /** Extra origins per connector type, trusted exactly as named (never from a tenant). */
  allowOrigins?: Record<string, string[]>;
  /** Told, after each refresh, how long the rotated credentials took from the token answer to the durable write. */
  onRefreshPersisted?: (seconds: number) => void;
  /** Told of every upstream request of every connection, with its connector type (metrics). */
  onUpstreamRequest?: (type: string, request: UpstreamRequest) => void;
  /** Where connections read time and schedule waits (default: real time). */
  clock?: Clock;
  /** Told after a refresh or a refused grant wrote a webhook event, so the worker sends it at once. */
  onEvent?: () => void;
}

/**
 * The live connections of stored connectors, one per connector, rebuilt when its stored
 * credentials change. Refreshes go through the store's credentials lock, so that several server
 * processes on one database refresh an OAuth grant once and all use the result. A call the
 * upstream refuses for good (REAUTH_REQUIRED) marks the connector `needs_reauth`.
 */
export class ConnectorPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: Store,
    private readonly cipher: Cipher,
    private readonly options: ConnectorPoolOptions = {},
  ) {}

  /**
   * The connection of a connector the caller already resolved through a user-scoped read: the
   * open one itself when its credentials and config are current (no promise: every execute asks),
   * else a promise of a new one.
   */
  connection(row: ConnectorRow): Connection | Promise<Connection> {
    const cached = this.entries.get(row.id);
    if (cached && cached.version >= row.credentials_version && cached.updatedAt === row.updated_at) return cached.connection;
    return this.open(row);
  }

  private async open(row: ConnectorRow): Promise<Connection> {
    const stored = await this.store.readCredentials(row.id);
    if (!stored) throw new Error(`connector ${row.id} has no stored credentials`);
    const credentials = JSON.parse(this.cipher.decrypt(stored.ciphertext)) as Credentials;
    const entry: Entry = { version: stored.version, updatedAt: row.updated_at, connection: undefined as unknown as Connection };
    entry.connection = openConnection(row.connector_type, {
      credentials,
      config: row.config,
      ...this.routing(row.connector_type, row.id),
      refreshCoordinator: this.coordinator(row.id, entry),
      onAuthFailure: async (error) => {
        await this.store.markNeedsReauth(row.id, error.upstream?.message ?? error.message);
        this.options.onEvent?.();
      },
    });
    this.entries.set(row.id, entry);
    return entry.connection;
  }

  /**
   * Runs the type's credentials check on credentials not stored yet (a create, a credentials
   * PATCH) through a connection opened as stored ones are: the operator's routing and egress
   * rules, the rate limit (the stored connector's shared one when `connectorId` names it) and the
   * metrics. Answers the credentials to store: the rotated set when the check refreshed an OAuth
   * grant, since a single-use refresh token is spent by then.
   */
  async checkCredentials(input: {
    type: string;
    credentials: Credentials;
    config: Record<string, unknown>;
    connectorId?: string;
    deadlineMs?: number;
  }): Promise<Credentials> {
    const connection = openConnection(input.type, { credentials: input.credentials, config: input.config, ...this.routing(input.type, input.connectorId) });
    await connection.checkCredentials(input.deadlineMs === undefined ? undefined : { deadlineMs: input.deadlineMs });
    return connection.credentials;
  }

  /** How a connection of `type` is routed, limited and observed; `connectorId` names the stored connector whose rate limit it shares. */
  private routing(type: string, connectorId?: string): Partial<ConnectOptions> {
    const baseUrl = this.options.upstreams?.[type];
    const allowOrigins = this.options.allowOrigins?.[type];
    const onUpstreamRequest = this.options.onUpstreamRequest;
    return {
      ...(baseUrl ? { baseUrl } : {}),
      ...(allowOrigins?.length ? { allowOrigins } : {}),
      // A stored connector's rate limit lives in the database: every process on it shares one
      // budget. A connector not stored yet has none there, so its one check read uses the manifest's in memory.
      ...(this.options.clientRateLimits === false ? { rateLimit: false as const } : connectorId ? { rateSlots: this.store.rateSlots(connectorId) } : {}),
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      ...(onUpstreamRequest ? { onUpstreamRequest: (request: UpstreamRequest) => onUpstreamRequest(type, request) } : {}),
    };
  }

  /** Forgets a connector's connection (after an update or a delete). */
  forget(id: string): void {
    this.entries.delete(id);
  }

  private coordinator(id: string, entry: Entry): RefreshCoordinator {
    return {
      refresh: async (stale, run) => {
        let answeredAt = 0;
        const outcome = await this.store.withCredentialsLock(id, async (current) => {
          const stored = JSON.parse(this.cipher.decrypt(current.ciphertext)) as Credentials;
          const someoneRefreshed =
            stored.access_token !== undefined && stored.access_token !== stale.access_token && !expired(stored, (this.options.clock ?? systemClock).now());
          if (someoneRefreshed) return { credentials: stored, refreshed: false, version: current.version };
          // Refresh from the stored set: with single-use refresh tokens only the newest one works.
          const next = await run(stored);
          answeredAt = performance.now();
          // Nothing else happens before the write: the upstream has spent the old refresh token, so
          // until this commits, a crash loses the grant (the window the metric measures).
          // The event commits with the new credentials, and carries none of them (README "Webhooks").
          return {
            ciphertext: this.cipher.encrypt(JSON.stringify(next)),
            emit: { type: 'credentials.refreshed' as const, data: { credentials_version: current.version + 1 } },
            credentials: next,
            refreshed: true,
            version: current.version + 1,
          };
        });
        if (outcome.refreshed) {
          this.options.onRefreshPersisted?.((performance.now() - answeredAt) / 1000);
          this.options.onEvent?.();
        }
        entry.version = outcome.version;
        return { credentials: outcome.credentials, refreshed: outcome.refreshed };
      },
    };
  }
}
