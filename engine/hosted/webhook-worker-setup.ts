import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock/index.js';
import { WebhookWorker } from '../webhooks/index.js';
import type { HostedServerOptions } from './server-options.js';

/** The service's webhook worker, from its options; `log` is read when it logs (the server exists by then). */
export function createWebhookWorker(options: HostedServerOptions, log: () => FastifyBaseLogger, clock: Clock): WebhookWorker {
  const settings = options.webhooks ?? {};
  return new WebhookWorker({
    store: options.store,
    cipher: options.cipher,
    clock,
    logger: { error: (object, message) => log().error(object, message) },
    ...(settings.allowOrigins ? { allowOrigins: settings.allowOrigins } : {}),
    ...(settings.pollMs !== undefined ? { pollMs: settings.pollMs } : {}),
    ...(settings.attemptTimeoutMs !== undefined ? { attemptTimeoutMs: settings.attemptTimeoutMs } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
}
