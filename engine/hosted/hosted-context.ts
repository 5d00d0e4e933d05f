import { systemClock, type Clock } from '../clock/index.js';
import type { FastifyBaseLogger, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { UnauthenticatedError } from '../errors.js';
import { findManifest } from '../manifest/index.js';
import { SyncScheduler } from '../sync/index.js';
import { connectorNotFound, type Cipher, type ConnectorRow, type Store, type SyncState, type Tenant } from '../store/index.js';
import { registerAuthMetrics } from './auth-metrics.js';
import { ClientAuthenticator } from './client-auth.js';
import { ConnectorPool } from './connector-pool.js';
import { ServiceMetrics } from './metrics.js';
import type { HostedServerOptions } from './server-options.js';
import { TenancyCache } from './tenancy-cache.js';
import { TokenIssuer, type TokenScope } from './tokens.js';
import { createWebhookWorker } from './webhook-worker-setup.js';
import type { WebhookWorker } from '../webhooks/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    scope?: TokenScope;
    /** The store's tenancy mark the authentication checked the client under (TenancyCache). */
    tenancyMark?: number;
  }
}

/** Whether a pass runs now (in any process) and when the next one is due. */
export interface SyncSummary {
  running: boolean;
  next_sync_at: string | null;
  interval_ms: number;
}

/** What the routes share: the store, the connections, the scheduler and the tenant checks. */
export interface HostedContext {
  options: HostedServerOptions;
  store: Store;
  cipher: Cipher;
  clock: Clock;
  tokens: TokenIssuer;
  clients: ClientAuthenticator;
  /** The live clients and tenant connectors looked up, kept until the store says tenancy data changed. */
  tenancy: TenancyCache;
  metrics: ServiceMetrics;
  pool: ConnectorPool;
  scheduler: SyncScheduler;
  /** Sends the webhook outbox's due deliveries (started with the server unless `webhooks.background` is false). */
  webhooks: WebhookWorker;
  /** Whether this process runs due passes in the background. */
  background: boolean;
  /** Makes a pass due now; `runHere` runs it in this process when it has no background loop. */
  requestSync(tenant: Tenant, id: string, full: boolean, runHere: boolean): Promise<void>;
  syncSummary(tenant: Tenant, id: string): Promise<SyncSummary>;
  syncStatus(tenant: Tenant, id: string): Promise<SyncSummary & { connector_id: string; entities: SyncState[] }>;
  /**
   * The tenant's connector, or CONNECTOR_NOT_FOUND exactly as for an unknown id: the row itself
   * when the tenancy cache keeps it (no promise on the hot path), else a promise of it.
   */
  owned(request: FastifyRequest, id: string): ConnectorRow | Promise<ConnectorRow>;
  /** The type's credentials check under the execute deadline; answers the credentials to store (rotated, when it refreshed). */
  checkWithUpstream(
    type: string,
    credentials: Record<string, unknown>,
    config: Record<string, unknown>,
    connectorId?: string,
  ): Promise<Record<string, unknown>>;
}

/** The row looked up, or CONNECTOR_NOT_FOUND. */
function existing(row: ConnectorRow | undefined): ConnectorRow {
  if (!row) throw connectorNotFound();
  return row;
}

/** The tenant a verified token names; the authenticate hook sets it before any scoped route runs. */
export function tenantOf(request: FastifyRequest): TokenScope {
  if (!request.scope) throw new UnauthenticatedError('send Authorization: Bearer <token> (get one from POST /v1/auth/token)');
  return request.scope;
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out as Pick<T, K>;
}

function createScheduler(
  options: HostedServerOptions,
  pool: ConnectorPool,
  metrics: ServiceMetrics,
  log: () => FastifyBaseLogger,
  clock: Clock,
  webhooks: WebhookWorker,
): SyncScheduler {
  const { store } = options;
  return new SyncScheduler({
    store,
    open: async (id) => {
      const row = await store.findConnector(id);
      return row ? { connection: await pool.connection(row), manifest: findManifest(row.connector_type).manifest } : undefined;
    },
    logger: {
      info: (object, message) => log().info(object, message),
      warn: (object, message) => log().warn(object, message),
      error: (object, message) => log().error(object, message),
    },
    observer: metrics.sync,
    clock,
    onEvent: () => webhooks.kick(),
    ...pick(options.sync ?? {}, ['intervalMs', 'pollMs', 'leaseMs', 'fullEveryMs', 'concurrency']),
  });
}

/**
 * Builds what the routes share from the options. `log` is the server's logger, read when a pass
 * logs (the server exists by then).
 */
export function createHostedContext(options: HostedServerOptions, log: () => FastifyBaseLogger): HostedContext {
  const { store, cipher } = options;
  const clock = options.clock ?? systemClock;
  const metrics = new ServiceMetrics(store);
  const authMetrics = registerAuthMetrics(metrics.registry, store);
  const webhooks = createWebhookWorker(options, log, clock);
  const pool = new ConnectorPool(store, cipher, {
    onEvent: () => webhooks.kick(),
    ...pick(options, ['upstreams', 'clientRateLimits', 'allowOrigins']),
    onRefreshPersisted: (seconds) => authMetrics.persistWindow.observe(seconds),
    onUpstreamRequest: (type, request) => metrics.countUpstream(type, request),
    clock,
  });
  const scheduler = createScheduler(options, pool, metrics, log, clock, webhooks);
  const background = options.sync?.background ?? true;
  const context: HostedContext = {
    options,
    store,
    cipher,
    clock,
    metrics,
    pool,
    scheduler,
    webhooks,
    background,
    tokens: new TokenIssuer(options.serviceKey, undefined, clock),
    clients: new ClientAuthenticator(store),
    tenancy: new TenancyCache(store),
    async requestSync(tenant, id, full, runHere) {
      if (!(await store.tenantScheduleSync(tenant, id, { dueAt: new Date(clock.now()), earliest: true, full }))) throw connectorNotFound();
      // Asked after a create or new credentials: the create's connector.created is in the outbox now.
      webhooks.kick();
      if (background) scheduler.kick();
      else if (runHere) void scheduler.runNow(id).catch((error: unknown) => log().error({ err: error, connector: id }, 'sync: pass failed'));
    },
    async syncSummary(tenant, id) {
      const job = await store.tenantSyncJob(tenant, id);
      const running = scheduler.isRunning(id) || (job?.lease_until ? Date.parse(job.lease_until) > clock.now() : false);
      return { running, next_sync_at: running ? null : (job?.due_at ?? null), interval_ms: scheduler.intervalMs };
    },
    async syncStatus(tenant, id) {
      let entities = await store.tenantSyncStates(tenant, id);
      if (!entities) throw connectorNotFound();
      const summary = await context.syncSummary(tenant, id);
      // A pass that ended between the two reads left its entities `running` in the first one:
      // read them again, so `running: false` never sits beside an entity still running.
      if (!summary.running && entities.some((state) => state.status === 'running')) entities = (await store.tenantSyncStates(tenant, id)) ?? [];
      return { connector_id: id, ...summary, entities };
    },
    owned(request, id) {
      const found = context.tenancy.connector(tenantOf(request), id, request.tenancyMark);
      return found instanceof Promise ? found.then(existing) : found;
    },
    checkWithUpstream: (type, credentials, config, connectorId) =>
      pool.checkCredentials({
        type,
        credentials,
        config,
        ...(connectorId ? { connectorId } : {}),
        ...(options.executeDeadlineMs !== undefined ? { deadlineMs: options.executeDeadlineMs } : {}),
      }),
  };
  return context;
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new UnauthenticatedError('send Authorization: Bearer <token> (get one from POST /v1/auth/token)');
  return match[1];
}

/** Checks the token and its client through the store when a cache does not know them yet. */
async function authenticate(context: HostedContext, request: FastifyRequest, token: string): Promise<void> {
  const scope = await context.tokens.verify(token);
  const client = await context.tenancy.clientIsLive(scope.clientId);
  if (!client.live) throw new UnauthenticatedError('the platform client of this token has been revoked');
  request.scope = scope;
  request.tenancyMark = client.mark;
}

/**
 * The preHandler of scoped routes: a valid token of a platform client that is not revoked. A
 * callback hook: a token verified before, of a client known live under the store's current
 * tenancy mark (read on every request, so a revocation still counts at once), passes without a
 * promise; anything else takes the async path.
 */
export function authenticator(context: HostedContext): preHandlerHookHandler {
  return (request, _reply, done) => {
    let token: string;
    try {
      token = bearer(request);
    } catch (error) {
      done(error as UnauthenticatedError);
      return;
    }
    const scope = context.tokens.verifiedScope(token);
    const mark = scope ? context.tenancy.liveMark(scope.clientId) : undefined;
    if (mark instanceof Promise) {
      mark.then((known) => admit(context, request, token, scope, known, done), done);
      return;
    }
    admit(context, request, token, scope, mark, done);
  };
}

/** Lets the request in under the mark its client is known live at, or checks the token and client through the store. */
function admit(
  context: HostedContext,
  request: FastifyRequest,
  token: string,
  scope: TokenScope | undefined,
  mark: number | undefined,
  done: (error?: Error) => void,
): void {
  if (scope && mark !== undefined) {
    request.scope = scope;
    request.tenancyMark = mark;
    done();
    return;
  }
  authenticate(context, request, token).then(() => done(), done);
}
