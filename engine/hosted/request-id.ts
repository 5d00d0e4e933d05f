import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The id of one request: a fresh UUID, never taken from the request's own headers, so an answer
 * never echoes caller input and ids cannot be forged into another request's log lines. fastify
 * puts it on every log line of the request (`reqId`).
 */
export function newRequestId(): string {
  return randomUUID();
}

/**
 * Puts the request id on every answer that goes through the request lifecycle (success, errors,
 * unknown routes, downloads) as `x-request-id`, so a caller can quote it and the operator can
 * find the log lines. Answers made before any hook runs set it themselves (see sendError). A
 * callback hook, not an async one: it runs on every request, and an async hook costs a promise
 * and a microtask turn each time.
 */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
