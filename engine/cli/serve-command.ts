import { InvalidRequestError } from '../errors.js';
import { printError } from './output.js';
import { BatchedLogStream, startHostedService, type HostedService } from '../hosted/index.js';
import { findManifest, shippedTypes } from '../manifest/index.js';
import { deadlineProblem, trustedOrigins } from '../runtime/index.js';
import type { Sandbox, SandboxOptions } from '../sandbox/index.js';

export interface ServeOptions {
  port?: string;
  databaseUrl?: string;
  sandbox?: boolean;
  syncInterval?: string;
  sync?: boolean;
  maxConnectorsPerUser?: string;
  executeDeadlineMs?: string;
  /** False with --no-rate-limits: a benchmark measures the service, not the limits it keeps for the upstreams. */
  rateLimits?: boolean;
}

function secondsFrom(variable: string): number | undefined {
  const value = process.env[variable];
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new InvalidRequestError(`${variable} must be a positive number of seconds, got "${value}"`, {
      details: [{ path: variable, message: 'must be seconds > 0' }],
    });
  }
  return seconds * 1000;
}

function minutesFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new InvalidRequestError(`the sync interval must be a positive number of minutes, got "${value}"`, {
      details: [{ path: '--sync-interval', message: 'must be minutes > 0' }],
    });
  }
  return minutes * 60_000;
}

function countFrom(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) {
    throw new InvalidRequestError(`${name} must be a whole number of at least 1, got "${value}"`, {
      details: [{ path: name, message: 'must be an integer >= 1' }],
    });
  }
  return count;
}

/** The execute deadline an operator sets (flag or ENGINE_EXECUTE_DEADLINE_MS), checked at start. */
function deadlineFrom(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const problem = deadlineProblem(Number(value));
  if (problem) throw new InvalidRequestError(`${name} ${problem}, got "${value}"`, { details: [{ path: name, message: problem }] });
  return Number(value);
}

/**
 * Starts the fakes, loading them only then: five fake upstreams with their seeds are a seventh of
 * a second of CPU that `serve` and `sync` without --sandbox need not spend on every start.
 */
export async function startLazySandbox(options: SandboxOptions): Promise<Sandbox> {
  const { startSandbox } = await import('../sandbox/index.js');
  return startSandbox(options);
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/engine.db';

function portFrom(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidRequestError(`the port must be an integer from 0 to 65535, got "${value}"`, {
      details: [{ path: '--port', message: 'must be a port number' }],
    });
  }
  return port;
}

/** ENGINE_UPSTREAM_<TYPE>=URL routes a connector type to another base URL (type upper-cased, - as _). */
export function upstreamsFromEnv(types: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const type of types) {
    const value = process.env[`ENGINE_UPSTREAM_${type.toUpperCase().replace(/-/g, '_')}`];
    if (value) out[type] = value;
  }
  return out;
}

/**
 * ENGINE_ALLOW_ORIGINS_<TYPE>=origin,origin widens where a type's requests may go beyond its
 * manifest's hosts, by exact origins (e.g. a second host of a fake or of a proxy). Checked at
 * start, so a typo stops the server instead of refusing requests later.
 */
export function allowOriginsFromEnv(types: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const type of types) {
    const name = `ENGINE_ALLOW_ORIGINS_${type.toUpperCase().replace(/-/g, '_')}`;
    const origins = (process.env[name] ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value !== '');
    if (origins.length === 0) continue;
    try {
      out[type] = trustedOrigins(undefined, origins);
    } catch (error) {
      throw new InvalidRequestError(`${name}: ${(error as Error).message}`, {
        details: [{ path: name, message: 'must be origins (scheme://host[:port]) separated by commas' }],
      });
    }
  }
  return out;
}

/** ENGINE_ALLOW_ORIGINS_WEBHOOKS: the origins webhook deliveries may reach although http or not public (loopback receivers, an internal relay). */
export function webhookOrigins(): string[] {
  return allowOriginsFromEnv(['webhooks']).webhooks ?? [];
}

/** Where the operator routes each type: base URLs, and the extra origins each may reach. */
export interface UpstreamRoutes {
  upstreams: Record<string, string>;
  allowOrigins: Record<string, string[]>;
}

/**
 * The routes of the running sandbox (every type to its fake, with the fakes' second origins) or
 * of the ENGINE_UPSTREAM_<TYPE> variables; ENGINE_ALLOW_ORIGINS_<TYPE> widens either.
 */
export function upstreamRoutes(sandbox: Sandbox | undefined): UpstreamRoutes {
  const types = shippedTypes();
  const widened = allowOriginsFromEnv(types);
  if (!sandbox) return { upstreams: upstreamsFromEnv(types), allowOrigins: widened };
  const entries = Object.entries(sandbox.upstreams);
  return {
    upstreams: Object.fromEntries(entries.map(([type, info]) => [type, info.base_url])),
    allowOrigins: Object.fromEntries(entries.map(([type, info]) => [type, [...info.allow_origins, ...(widened[type] ?? [])]])),
  };
}

/**
 * `connector-engine serve`: the hosted API. Flags win over ENGINE_* variables. With --sandbox the
 * fake upstreams run in this process and every connector type is routed to them; the first stdout
 * line is then the sandbox's JSON, as `connector-engine sandbox` prints it.
 */
export async function serveCommand(options: ServeOptions): Promise<void> {
  const databaseUrl = options.databaseUrl || process.env.ENGINE_DATABASE_URL || DEFAULT_DATABASE_URL;
  const port = portFrom(options.port || process.env.ENGINE_PORT || undefined);
  let sandbox: Sandbox | undefined;
  if (options.sandbox) {
    sandbox = await startLazySandbox({ rateLimits: options.rateLimits !== false });
    process.stdout.write(JSON.stringify(sandbox.describe()) + '\n');
  }
  const { upstreams, allowOrigins } = upstreamRoutes(sandbox);
  const service = await startService(sandbox, () =>
    startHostedService({
      databaseUrl,
      port,
      ...(process.env.ENGINE_HOST ? { host: process.env.ENGINE_HOST } : {}),
      ...(process.env.ENGINE_SECRET ? { secret: process.env.ENGINE_SECRET } : {}),
      upstreams,
      allowOrigins,
      ...(sandbox ? { oauthApps: sandboxOAuthApps(sandbox) } : {}),
      clientRateLimits: options.rateLimits !== false,
      // One write per 20 ms at most instead of one per line (BatchedLogStream); flushed on exit.
      logger: { level: process.env.ENGINE_LOG_LEVEL ?? 'info', stream: new BatchedLogStream() },
      ...optional(
        'maxConnectorsPerUser',
        options.maxConnectorsPerUser !== undefined
          ? countFrom(options.maxConnectorsPerUser, '--max-connectors-per-user')
          : countFrom(process.env.ENGINE_MAX_CONNECTORS_PER_USER, 'ENGINE_MAX_CONNECTORS_PER_USER'),
      ),
      ...optional(
        'executeDeadlineMs',
        options.executeDeadlineMs !== undefined
          ? deadlineFrom(options.executeDeadlineMs, '--execute-deadline-ms')
          : deadlineFrom(process.env.ENGINE_EXECUTE_DEADLINE_MS, 'ENGINE_EXECUTE_DEADLINE_MS'),
      ),
      webhooks: { allowOrigins: webhookOrigins(), ...optional('pollMs', secondsFrom('ENGINE_WEBHOOK_POLL_SECONDS')) },
      sync: {
        background: options.sync !== false,
        ...optional('intervalMs', minutesFrom(options.syncInterval ?? process.env.ENGINE_SYNC_INTERVAL_MINUTES)),
        // Operator tuning: how long a crashed process keeps its job, and how often idle processes look.
        ...optional('leaseMs', secondsFrom('ENGINE_SYNC_LEASE_SECONDS')),
        ...optional('pollMs', secondsFrom('ENGINE_SYNC_POLL_SECONDS')),
      },
    }),
  );
  if (sandbox) allowSandboxRedirects(sandbox, service.url);
  // Scripts wait for this line (DESIGN.md §6), so it is written whatever the log level.
  process.stdout.write(
    JSON.stringify({
      level: 30,
      time: Date.now(),
      url: service.url,
      database: databaseUrl.replace(/\/\/[^@/]*@/, '//[REDACTED]@'),
      sandbox: Boolean(sandbox),
      msg: `connector-engine listening on ${service.url}`,
    }) + '\n',
  );
  if ((await service.store.listClients()).length === 0) {
    service.app.log.info('no platform client yet: create one with `npx connector-engine clients create --name my-app` and use it on POST /v1/auth/token');
  }
  // SIGTERM: stop accepting, let requests in flight finish, stop the sync passes of this process
  // (their jobs are released, due at once, for another process), then exit 0.
  const stop = () => {
    service.app.log.info('connector-engine: shutting down (requests in flight finish first)');
    void service
      .close()
      .then(() => sandbox?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          printError(error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The fakes' own OAuth apps, one per type with an authorization flow, from the credentials the
 * sandbox prints for that scheme: `serve --sandbox` needs no `oauth-apps set`, and stores nothing.
 */
export function sandboxOAuthApps(sandbox: Sandbox): Record<string, { client_id: string; client_secret: string }> {
  const apps: Record<string, { client_id: string; client_secret: string }> = {};
  for (const [type, info] of Object.entries(sandbox.upstreams)) {
    const scheme = findManifest(type).manifest.auth.find((candidate) => candidate.authorization);
    const credentials = scheme ? info.credentials_by_scheme[scheme.name] : undefined;
    if (credentials?.client_id && credentials.client_secret) apps[type] = { client_id: credentials.client_id, client_secret: credentials.client_secret };
  }
  return apps;
}

/** Registers the Connect page's callback with each fake's OAuth app, under both loopback names a browser may use. */
function allowSandboxRedirects(sandbox: Sandbox, serviceUrl: string): void {
  const url = new URL('/connect/callback', serviceUrl);
  const uris = [url.toString()];
  if (url.hostname === '127.0.0.1') uris.push(url.toString().replace('//127.0.0.1', '//localhost'));
  for (const fake of Object.values(sandbox.fakes) as Array<{ allowRedirectUri?: (uri: string) => void }>) for (const uri of uris) fake.allowRedirectUri?.(uri);
}

/**
 * Starts the service; when it cannot start (a port in use, a database out of reach), stops what
 * was already started, so the process exits at once with the error instead of running on.
 */
async function startService(sandbox: Sandbox | undefined, start: () => Promise<HostedService>): Promise<HostedService> {
  try {
    return await start();
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
