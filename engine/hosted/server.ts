import Fastify, { type FastifyInstance } from 'fastify';
import { registerClosingGuard } from './closing-guard.js';
import { sendError, toEngineError } from './error-reply.js';
import { frameworkOptions } from './framework-options.js';
import { authenticator, createHostedContext, type HostedContext } from './hosted-context.js';
import { registerJsonBody } from './json-body.js';
import { registerNodeAnswers } from './node-answers.js';
import { newRequestId, registerRequestIds } from './request-id.js';
import { RequestLog } from './request-log.js';
import { registerConnectPages, registerConnectSessionRoute } from './routes/connect-routes.js';
import { registerConnectorRoutes } from './routes/connector-routes.js';
import { registerExecuteRoutes } from './routes/execute-routes.js';
import { registerMcpRoutes } from './routes/mcp-routes.js';
import { registerPublicRoutes } from './routes/public-routes.js';
import { registerSyncRoutes } from './routes/sync-routes.js';
import type { HostedServerOptions } from './server-options.js';
import { registerUrlTextCheck } from './url-text.js';
import { registerWebhookRoutes } from './webhook-routes.js';

export { DEFAULT_MAX_CONNECTORS_PER_USER, type HostedServerOptions, type HostedSyncOptions, type HostedWebhookOptions } from './server-options.js';

/** Fastify with the service's limits, logging (authorization redacted) and body validation settings. */
function createFramework(options: HostedServerOptions): FastifyInstance {
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    genReqId: newRequestId,
    logController: new RequestLog(),
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
  return app;
}

/** Starting and stopping the sync loop with the server, the error answers, and the request metrics. */
function registerLifecycle(app: FastifyInstance, context: HostedContext): void {
  // Only once the port is bound: a server that cannot listen must not have started running passes.
  app.addHook('onListen', async () => {
    if (context.background) context.scheduler.start();
    if (context.options.webhooks?.background !== false) context.webhooks.start();
  });
  // At the start of a shutdown, beside the requests draining: passes stop at their next record and
  // hand their jobs back (due at once) while the store is still open.
  app.addHook('preClose', async () => {
    await context.scheduler.stop();
    await context.webhooks.stop();
  });
  app.setErrorHandler((error, request, reply) => sendError(reply, toEngineError(error, request)));
  app.setNotFoundHandler((request, reply) => sendError(reply, toEngineError({ statusCode: 404 }, request)));
  // A callback hook: it runs on every request, where an async one would cost a promise each time.
  app.addHook('onResponse', (request, reply, done) => {
    context.metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * Builds the hosted HTTP API (DESIGN.md §6) on a store. Every connector route is scoped to the
 * token's tenant (its platform client and external user) in the store's SQL: another tenant's
 * connector answers 404 exactly like an unknown one. Upstream base URLs come from manifests and
 * operator settings only, never from a request.
 */
export function createHostedServer(options: HostedServerOptions): FastifyInstance {
  const app = createFramework(options);
  const context = createHostedContext(options, () => app.log);
  registerLifecycle(app, context);
  registerPublicRoutes(app, context);
  registerConnectPages(app, context);
  app.register(async (scoped) => {
    scoped.addHook('preHandler', authenticator(context));
    registerConnectorRoutes(scoped, context);
    registerSyncRoutes(scoped, context);
    registerExecuteRoutes(scoped, context);
    registerMcpRoutes(scoped, context);
    registerConnectSessionRoute(scoped, context);
    registerWebhookRoutes(scoped, context);
  });
  return app;
}
