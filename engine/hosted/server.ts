import { systemClock, type Clock } from '../clock/index.js';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthenticatedError } from '../errors.js';
import { findManifest, missingConfig } from '../manifest/index.js';
import { checkConnectorInput, DownloadStream } from '../runtime/index.js';
import { searchCopy, SyncScheduler } from '../sync/index.js';
import { connectorNotFound, type Cipher, type ConnectorRow, type Store, type Tenant } from '../store/index.js';
import { bodySchema } from './body-schemas.js';
import { ClientAuthenticator } from './client-auth.js';
import { registerClosingGuard } from './closing-guard.js';
import { registerAuthMetrics } from './auth-metrics.js';
import { ConnectorPool } from './connector-pool.js';
import { connectorTypes } from './connector-types.js';
import { sendError, toEngineError } from './error-reply.js';
import { frameworkOptions } from './framework-options.js';
import { registerJsonBody } from './json-body.js';
import { ServiceMetrics } from './metrics.js';
import { registerNodeAnswers } from './node-answers.js';
import { openApiDocument } from './openapi.js';
import { newRequestId, registerRequestIds } from './request-id.js';
import { TokenIssuer, type TokenScope } from './tokens.js';
import { registerUrlTextCheck } from './url-text.js';

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
  /** The manifests' client-side rate limits (default on); off only for benchmarks against fakes. */
  clientRateLimits?: boolean;
  /** The most connectors one end user of one platform client may hold (default 100). */
  maxConnectorsPerUser?: number;
  /** The deadline of an execute whose body names no `timeout_ms` (default 30 s). */
  executeDeadlineMs?: number;
  sync?: HostedSyncOptions;
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

declare module 'fastify' {
  interface FastifyRequest {
    scope?: TokenScope;
  }
}

/** The connector as the API shows it: never the credentials. */
function view(row: ConnectorRow, sync?: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.id,
    external_user_id: row.external_user_id,
    connector_type: row.connector_type,
    name: row.name,
    config: row.config,
    auth_scheme: row.auth_scheme,
    // needs_reauth: the upstream refused the credentials for good; `reason` is what it said.
    auth: { state: row.auth_state, since: row.auth_state_at, reason: row.auth_reason },
    // Settings some actions need that this config lacks: which entities, and how to find a value.
    missing_config: missingConfig(findManifest(row.connector_type).manifest, row.config),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(sync ? { sync } : {}),
  };
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match) throw new UnauthenticatedError('send Authorization: Bearer <token> (get one from POST /v1/auth/token)');
  return match[1] as string;
}

/**
 * Builds the hosted HTTP API (DESIGN.md §6) on a store. Every connector route is scoped to the
 * token's tenant (its platform client and external user) in the store's SQL: another tenant's
 * connector answers 404 exactly like an unknown one. Upstream base URLs come from manifests and
 * operator settings only, never from a request.
 */
export function createHostedServer(options: HostedServerOptions): FastifyInstance {
  const { store, cipher } = options;
  const clock = options.clock ?? systemClock;
  const tokens = new TokenIssuer(options.serviceKey, undefined, clock);
  const metrics = new ServiceMetrics(store);
  const authMetrics = registerAuthMetrics(metrics.registry, store);
  const pool = new ConnectorPool(store, cipher, {
    ...pick(options, ['upstreams', 'clientRateLimits', 'allowOrigins']),
    onRefreshPersisted: (seconds) => authMetrics.persistWindow.observe(seconds),
    onUpstreamRequest: (type, request) => metrics.countUpstream(type, request),
    clock,
  });
  const syncOptions = options.sync ?? {};
  const background = syncOptions.background ?? true;
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    genReqId: newRequestId,
    ...frameworkOptions(),
    logger:
      options.logger === false
        ? false
        : {
            level: 'info',
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[REDACTED]' },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
  });
  registerRequestIds(app);
  registerNodeAnswers(app);
  registerClosingGuard(app);
  registerUrlTextCheck(app);
  registerJsonBody(app);
  const clients = new ClientAuthenticator(store);

  const scheduler = new SyncScheduler({
    store,
    open: async (id) => {
      const row = await store.findConnector(id);
      return row ? { connection: await pool.connection(row), manifest: findManifest(row.connector_type).manifest } : undefined;
    },
    logger: { info: (object, message) => app.log.info(object, message), warn: (object, message) => app.log.warn(object, message), error: (object, message) => app.log.error(object, message) },
    observer: metrics.sync,
    clock,
    ...pick(syncOptions, ['intervalMs', 'pollMs', 'leaseMs', 'fullEveryMs', 'concurrency']),
  });
  /**
   * Makes a pass due now. The background loop (in this or another process) takes it; a caller who
   * asked explicitly (`runHere`) gets it run by this process when it has no background loop.
   */
  const requestSync = async (tenant: Tenant, id: string, full: boolean, runHere: boolean) => {
    if (!(await store.tenantScheduleSync(tenant, id, { dueAt: new Date(clock.now()), earliest: true, full }))) throw connectorNotFound();
    if (background) scheduler.kick();
    else if (runHere) void scheduler.runNow(id).catch((error: unknown) => app.log.error({ err: error, connector: id }, 'sync: pass failed'));
  };
  /** The sync summary a connector carries: whether a pass runs now (in any process) and when the next is due. */
  const syncSummary = async (tenant: Tenant, id: string) => {
    const job = await store.tenantSyncJob(tenant, id);
    const running = scheduler.isRunning(id) || (job?.lease_until ? Date.parse(job.lease_until) > clock.now() : false);
    return { running, next_sync_at: running ? null : (job?.due_at ?? null), interval_ms: scheduler.intervalMs };
  };
  // Only once the port is bound: a server that cannot listen must not have started running passes.
  app.addHook('onListen', async () => {
    if (background) scheduler.start();
  });
  // At the start of a shutdown, beside the requests draining: passes stop at their next record and
  // hand their jobs back (due at once) while the store is still open.
  app.addHook('preClose', async () => {
    await scheduler.stop();
  });
  app.setErrorHandler((error, request, reply) => sendError(reply, toEngineError(error, request)));
  app.setNotFoundHandler((request, reply) => sendError(reply, toEngineError({ statusCode: 404 }, request)));
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const authenticate = async (request: FastifyRequest) => {
    const scope = await tokens.verify(bearer(request));
    const client = await store.findClient(scope.clientId);
    if (!client || client.revoked_at) throw new UnauthenticatedError('the platform client of this token has been revoked');
    request.scope = scope;
  };
  const scope = (request: FastifyRequest): TokenScope => request.scope as TokenScope;
  /** The type's credentials check, under the execute deadline; answers the credentials to store (rotated, when it refreshed). */
  const checkWithUpstream = (type: string, credentials: Record<string, unknown>, config: Record<string, unknown>, connectorId?: string) =>
    pool.checkCredentials({ type, credentials, config, ...(connectorId ? { connectorId } : {}), ...(options.executeDeadlineMs !== undefined ? { deadlineMs: options.executeDeadlineMs } : {}) });
  const owned = async (request: FastifyRequest, id: string): Promise<ConnectorRow> => {
    const row = await store.getConnector(scope(request), id);
    if (!row) throw connectorNotFound();
    return row;
  };

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  app.get('/v1/connector-types', async () => ({ data: connectorTypes() }));
  app.get('/openapi.json', async (request) => openApiDocument(`${request.protocol}://${request.host}`));

  app.post('/v1/auth/token', { schema: { body: bodySchema('hosted-token-request') } }, async (request) => {
    const body = request.body as { client_id: string; client_secret: string; external_user_id: string };
    const client = await clients.authenticate(body.client_id, body.client_secret);
    if (!client) {
      throw new UnauthenticatedError('unknown client_id or wrong client_secret');
    }
    return tokens.issue({ clientId: client.client_id, externalUserId: body.external_user_id });
  });

  app.register(async (scoped) => {
    scoped.addHook('preHandler', authenticate);

    scoped.post('/v1/integrations/connectors', { schema: { body: bodySchema('hosted-connector-create') } }, async (request, reply) => {
      const body = request.body as { external_user_id: string; connector_type: string; name?: string | null; credentials: Record<string, unknown>; config?: Record<string, unknown>; check_credentials?: boolean };
      if (body.external_user_id !== scope(request).externalUserId) {
        throw new ForbiddenError('external_user_id must be the user the token was issued for', { details: [{ path: '/external_user_id', message: 'does not match the token' }] });
      }
      const checked = checkConnectorInput(body.connector_type, body.credentials, body.config);
      // Before anything is stored: credentials the upstream refuses leave no connector behind.
      const credentials = body.check_credentials === false ? body.credentials : await checkWithUpstream(checked.type, body.credentials, checked.config);
      const tenant = scope(request);
      const row = await store.createConnector(
        {
          tenant,
          connector_type: checked.type,
          name: body.name ?? null,
          config: checked.config,
          auth_scheme: checked.scheme,
          credentials_ciphertext: cipher.encrypt(JSON.stringify(credentials)),
        },
        { maxPerTenant: options.maxConnectorsPerUser ?? DEFAULT_MAX_CONNECTORS_PER_USER },
      );
      // DESIGN.md §7: the copy starts filling as soon as the connector exists.
      await requestSync(tenant, row.id, true, false);
      return reply.code(201).send(view(row, await syncSummary(tenant, row.id)));
    });

    scoped.get('/v1/integrations/connectors', async (request) => {
      const type = (request.query as { connector_type?: unknown }).connector_type;
      const tenant = scope(request);
      const rows = await store.listConnectors(tenant, typeof type === 'string' ? { connector_type: type.toLowerCase() } : {});
      return { data: await Promise.all(rows.map(async (row) => view(row, await syncSummary(tenant, row.id)))) };
    });

    scoped.get('/v1/integrations/connectors/:id', async (request) => {
      const row = await owned(request, (request.params as { id: string }).id);
      return view(row, await syncSummary(scope(request), row.id));
    });

    scoped.patch('/v1/integrations/connectors/:id', { schema: { body: bodySchema('hosted-connector-update') } }, async (request) => {
      const id = (request.params as { id: string }).id;
      const row = await owned(request, id);
      const body = request.body as { name?: string | null; credentials?: Record<string, unknown>; config?: Record<string, unknown>; check_credentials?: boolean };
      let credentials = body.credentials;
      if (!credentials && body.config) {
        const stored = await store.readCredentials(id);
        credentials = JSON.parse(cipher.decrypt((stored as { ciphertext: string }).ciphertext)) as Record<string, unknown>;
      }
      const checked = credentials ? checkConnectorInput(row.connector_type, credentials, body.config ?? row.config) : undefined;
      // New credentials are checked before they replace the old ones, which keep working if refused.
      const replacement = checked && body.credentials && body.check_credentials !== false ? await checkWithUpstream(row.connector_type, body.credentials, checked.config, id) : body.credentials;
      const updated = await store.updateConnector(scope(request), id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(checked && body.config ? { config: checked.config } : {}),
        ...(checked && replacement ? { auth_scheme: checked.scheme, credentials_ciphertext: cipher.encrypt(JSON.stringify(replacement)) } : {}),
      });
      if (!updated) throw connectorNotFound();
      pool.forget(id);
      // New credentials or settings may reach other data (another profile, private calls): read everything again.
      if (body.credentials || body.config) await requestSync(scope(request), id, true, false);
      return view(updated, await syncSummary(scope(request), id));
    });

    scoped.delete('/v1/integrations/connectors/:id', async (request, reply) => {
      const id = (request.params as { id: string }).id;
      if (!(await store.deleteConnector(scope(request), id))) throw connectorNotFound();
      pool.forget(id);
      return reply.code(204).send();
    });

    const syncStatus = async (tenant: Tenant, id: string) => {
      const entities = await store.tenantSyncStates(tenant, id);
      if (!entities) throw connectorNotFound();
      return { connector_id: id, ...(await syncSummary(tenant, id)), entities };
    };

    const emptyBodyIsEmptyObject = async (request: FastifyRequest) => {
      request.body ??= {};
    };
    scoped.post('/api/v1/connectors/sources/:id/sync', { preValidation: emptyBodyIsEmptyObject, schema: { body: bodySchema('hosted-sync-request') } }, async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const body = request.body as { full?: boolean };
      await requestSync(scope(request), id, body.full ?? false, true);
      return reply.code(202).send(await syncStatus(scope(request), id));
    });

    scoped.get('/api/v1/connectors/sources/:id/sync', async (request) => syncStatus(scope(request), (request.params as { id: string }).id));

    scoped.post('/api/v1/connectors/sources/:id/execute', { schema: { body: bodySchema('hosted-execute-request') } }, async (request, reply) => {
      const row = await owned(request, (request.params as { id: string }).id);
      const body = request.body as { entity: string; action: string; params?: Record<string, unknown>; timeout_ms?: number };
      const manifest = findManifest(row.connector_type).manifest;
      // `search` reads the synchronized copy: no upstream call, so no credentials are opened.
      if (body.action === 'search' && manifest.entities[body.entity]?.sync) {
        return searchCopy({ store, manifest, connectorId: row.id, tenant: scope(request) }, body.entity, body.params ?? {});
      }
      const connection = await pool.connection(row);
      const deadlineMs = body.timeout_ms ?? options.executeDeadlineMs;
      const result = await connection.execute(body.entity, body.action, body.params, deadlineMs === undefined ? undefined : { deadlineMs });
      // The upstream took the credentials after all (the grant recovered, a rotated token arrived).
      if (row.auth_state === 'needs_reauth') await store.clearNeedsReauth(row.id);
      return result instanceof DownloadStream ? sendFile(reply, result) : result;
    });
  });

  return app;
}

/** Streams a downloaded file through, with the file host's status (200 or 206) and headers. */
function sendFile(reply: FastifyReply, file: DownloadStream): FastifyReply {
  reply.code(file.status);
  reply.header('content-type', file.contentType ?? 'application/octet-stream');
  if (file.contentLength !== undefined) reply.header('content-length', String(file.contentLength));
  if (file.contentRange) reply.header('content-range', file.contentRange);
  reply.header('accept-ranges', 'bytes');
  const stream = Readable.from(file);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) file.cancel();
  });
  return reply.send(stream);
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
