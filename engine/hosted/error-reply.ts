import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { EngineError, InternalError, InvalidRequestError, NotFoundError, PayloadTooLargeError } from '../errors.js';

/**
 * Maps whatever a route threw to the error body of DESIGN.md §6. Engine errors carry their own
 * status; fastify's body problems become INVALID_REQUEST / PAYLOAD_TOO_LARGE; anything else is
 * INTERNAL with a generic message (the details go to the log, never to the caller).
 */
export function toEngineError(error: unknown, request: FastifyRequest): EngineError {
  // A refused outbound request is an attack or a misconfiguration: operators see it (host, port, path and rule only).
  if (error instanceof EngineError && error.code === 'HOST_NOT_ALLOWED') request.log.warn({ code: error.code, details: error.details }, error.message);
  if (error instanceof EngineError) return error;
  const fastifyError = error as FastifyError & { validation?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> };
  if (fastifyError.validation) {
    const details = fastifyError.validation.map((v) => {
      const extra = v.params?.additionalProperty ?? v.params?.missingProperty;
      return { path: `${v.instancePath}${extra ? `/${String(extra)}` : ''}` || '/', message: extra && v.params?.additionalProperty ? 'is not allowed' : v.message ?? 'is invalid' };
    });
    return new InvalidRequestError(`invalid request body: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, { details });
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new PayloadTooLargeError('the request body is larger than the limit');
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new InvalidRequestError('send the body as application/json');
  if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new InvalidRequestError('the request body is not valid JSON');
  }
  if (fastifyError.statusCode === 404) return new NotFoundError(`no route ${request.method} ${request.url.split('?')[0]}`);
  request.log.error({ err: error }, 'unexpected error');
  return new InternalError('internal error; see the server log with the request id');
}

/** Sends an error body with its status. */
export function sendError(reply: FastifyReply, error: EngineError): FastifyReply {
  if (error.retryAfterMs !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterMs / 1000)));
  return reply.code(error.status).type('application/json').send(error.toJSON());
}
