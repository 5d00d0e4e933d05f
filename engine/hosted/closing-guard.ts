import type { FastifyInstance } from 'fastify';
import { ServiceUnavailableError } from '../errors.js';

/**
 * Answers requests that arrive on open connections while the server shuts down with a retryable
 * SERVICE_UNAVAILABLE (503) in the error shape (fastify's `return503OnClosing` would answer in its
 * own shape); requests already in flight finish normally, and then their idle connections close.
 */
export function registerClosingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks: they run on every request, where async ones would cost a promise each time.
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      done(new ServiceUnavailableError('the service is shutting down; retry the request'));
      return;
    }
    done();
  });
  // A connection left idle during shutdown is closed as soon as its last answer is out: kept alive,
  // it would hold the server open for the whole keep-alive timeout (72 s by fastify's default).
  // Idle only: an answer to a request already pipelined behind it is still written.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
    done();
  });
}
