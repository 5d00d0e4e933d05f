import type { ServerOptions } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { answerClientError } from './client-error.js';
import { sendError, toEngineError } from './error-reply.js';

/** The longest path parameter the router takes (fastify's default); ids are 29 characters. */
export const MAX_PARAM_LENGTH = 100;

/**
 * The fastify options that keep every answer in the error shape of DESIGN.md §6: URL errors the
 * router raises before any hook (bad percent-encoding, a segment over MAX_PARAM_LENGTH) go to
 * our error mapping instead of fastify's own body, Node's parser errors to answerClientError,
 * and a request that arrives while the server closes is answered by refuseWhileClosing instead
 * of fastify's built-in 503 body. Node's own answers are taken over by registerNodeAnswers.
 */
export function frameworkOptions(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler' | 'routerOptions' | 'return503OnClosing'> & {
  http: ServerOptions;
} {
  return {
    // Node would answer a missing Host itself; registerNodeAnswers checks it in our shape instead.
    http: { requireHostHeader: false },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: false,
    frameworkErrors: (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      sendError(reply, toEngineError(error, request));
    },
    clientErrorHandler: answerClientError,
  };
}
