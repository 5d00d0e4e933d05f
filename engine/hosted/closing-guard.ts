import type { FastifyInstance } from 'fastify';
import { ServiceUnavailableError } from '../errors.js';

/**
 * Answers requests that arrive on open connections while the server shuts down with a retryable
 * SERVICE_UNAVAILABLE (503) in the error shape (fastify's `return503OnClosing` would answer in its
 * own shape); requests already in flight finish normally, and then close their connections.
 */
export function registerClosingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw new ServiceUnavailableError('the service is shutting down; retry the request');
    }
  });
  // A request that finishes during shutdown closes its connection: a kept-alive connection would
  // otherwise hold the server open for the whole keep-alive timeout (72 s by fastify's default).
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
