import type { Clock } from '../clock/index.js';
import type { Cipher, Store } from '../store/index.js';
import type { RetryPolicy } from '../webhooks/index.js';

/** An OAuth app's client credentials (the operator's registration with the upstream). */
export interface OAuthApp {
  client_id: string;
  client_secret: string;
}

/** What the hosted server needs. */
export interface HostedServerOptions {
  store: Store;
  cipher: Cipher;
  /** The service key (32 bytes): tokens are signed with a key derived from it. */
  serviceKey: Buffer;
  /** Upstream base URL per connector type (sandbox or ENGINE_UPSTREAM_<TYPE>); manifests otherwise. */
  upstreams?: Record<string, string>;
  /** Extra origins per connector type, trusted exactly as named (the sandbox's second hosts, ENGINE_ALLOW_ORIGINS_<TYPE>). */
  allowOrigins?: Record<string, string[]>;
  /** pino logger options, or false for none. */
  logger?: boolean | Record<string, unknown>;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** The manifests' client-side rate limits and concurrency caps (default on); off only for benchmarks against fakes. */
  clientRateLimits?: boolean;
  /** The most connectors one end user of one platform client may hold (default 100). */
  maxConnectorsPerUser?: number;
  /** The deadline of an execute whose body names no `timeout_ms` (default 30 s). */
  executeDeadlineMs?: number;
  sync?: HostedSyncOptions;
  webhooks?: HostedWebhookOptions;
  /**
   * OAuth apps per connector type the Connect page uses before the operator's stored ones
   * (`oauth-apps set`): `serve --sandbox` passes the fakes' own apps here, so nothing is stored.
   */
  oauthApps?: Record<string, OAuthApp>;
  /**
   * Where the service reads time and schedules waits: token lifetimes, connections (retries, rate
   * limits, deadlines, token expiry) and the sync scheduler. Default real time; the store takes its
   * own (`openStore(url, {clock})`).
   */
  clock?: Clock;
}

/** The default of `maxConnectorsPerUser`: far above any real user, far below a runaway script. */
export const DEFAULT_MAX_CONNECTORS_PER_USER = 100;

/** How the hosted service keeps its synchronized copies. */
export interface HostedSyncOptions {
  /**
   * Run due sync jobs in the background of this process (default true): a pass starts when a
   * connector is created and repeats every `intervalMs`. When false, passes only run when asked
   * for (POST .../sync, `connector-engine sync`), and another process may run the due ones.
   */
  background?: boolean;
  /** Time between passes of one connector (default 60 min). */
  intervalMs?: number;
  /** How often an idle process looks for due jobs (default 5 s). */
  pollMs?: number;
  /** How long a job stays claimed without a heartbeat, e.g. after a crash (default 2 min). */
  leaseMs?: number;
  /** Longest time between full passes where incremental ones are possible (default 24 h). */
  fullEveryMs?: number;
  /** Passes one process runs at once (default 4). */
  concurrency?: number;
}

/** How the service delivers webhooks (README "Webhooks"). */
export interface HostedWebhookOptions {
  /** Deliver due webhooks from this process (default true). */
  background?: boolean;
  /** Origins deliveries may reach although http or not public (ENGINE_ALLOW_ORIGINS_WEBHOOKS), trusted exactly as named. */
  allowOrigins?: string[];
  /** How often an idle worker looks for due deliveries (default 5 s). */
  pollMs?: number;
  /** How long one attempt may take (default 10 s). */
  attemptTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}
