import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  EngineError,
  InternalError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  summarizeDetails,
  UnsupportedMediaTypeError,
  UriTooLongError,
  type ErrorDetail,
} from '../errors.js';
import { storeUnavailable } from '../store/index.js';
import { logFailure } from './failure-log.js';

type ValidationProblem = { instancePath: string; message?: string; params?: Record<string, unknown> };

/**
 * What fastify's own errors mean to a caller, by code. The messages are ours: fastify's may quote
 * the raw URL or body, and an answer never echoes raw request input.
 */
const FRAMEWORK_ERRORS: Record<string, () => EngineError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new PayloadTooLargeError('the request body is larger than the limit'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new UnsupportedMediaTypeError('send the body as application/json'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new InvalidRequestError('the request body is empty; send a JSON object or no Content-Type'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new InvalidRequestError('the request body is not valid JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new InvalidRequestError('the request body does not match its Content-Length'),
  FST_ERR_BAD_URL: () => new InvalidRequestError('the URL path is not valid percent-encoded UTF-8'),
  FST_ERR_MAX_PARAM_LENGTH: () => new UriTooLongError('a path segment is longer than 100 characters; no connector id is that long'),
};

function validationError(problems: ValidationProblem[]): InvalidRequestError {
  const details: ErrorDetail[] = problems.map((v) => {
    const extra = v.params?.additionalProperty ?? v.params?.missingProperty;
    return {
      path: `${v.instancePath}${extra ? `/${String(extra)}` : ''}` || '/',
      message: extra && v.params?.additionalProperty ? 'is not allowed' : (v.message ?? 'is invalid'),
    };
  });
  return new InvalidRequestError(`invalid request body: ${summarizeDetails(details)}`, { details });
}

/**
 * Maps whatever a route, a hook or the framework threw to the error body of DESIGN.md §6. Engine
 * errors carry their own status; fastify's request problems get the codes of FRAMEWORK_ERRORS
 * (any other 4xx of fastify is INVALID_REQUEST); anything else is INTERNAL with a generic message
 * (the details go to the log under the request id, never to the caller).
 */
export function toEngineError(error: unknown, request: FastifyRequest): EngineError {
  // A refused outbound request is an attack or a misconfiguration: operators see it (host, port, path and rule only).
  if (error instanceof EngineError && error.code === 'HOST_NOT_ALLOWED') request.log.warn({ code: error.code, details: error.details }, error.message);
  if (error instanceof EngineError) {
    if (error.code === 'INTERNAL') request.log.error({ err: error }, error.message);
    return error;
  }
  const unavailable = storeUnavailable(error);
  if (unavailable) {
    request.log.warn({ err: error }, unavailable.message);
    return unavailable;
  }
  const fastifyError = error as FastifyError & { validation?: ValidationProblem[] };
  if (fastifyError.validation) return validationError(fastifyError.validation);
  const known = typeof fastifyError.code === 'string' ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return known();
  if (fastifyError instanceof SyntaxError) return new InvalidRequestError('the request body is not valid JSON');
  if (fastifyError.statusCode === 404) return new NotFoundError('no route matches this method and path');
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new InvalidRequestError('the request cannot be read');
  request.log.error({ err: error }, 'unexpected error');
  return new InternalError('internal error; see the server log with the request id');
}

/** The error body of one request: DESIGN.md §6's shape, with the request's id. */
export function errorBody(error: EngineError, requestId: string): { error: Record<string, unknown> } {
  const body = error.toJSON();
  body.error.request_id = requestId;
  return body;
}

/**
 * Sends an error body with its status, the request id in `x-request-id` (also for answers that
 * no hook ran for, such as fastify's URL errors) and `retry-after` when the error says when.
 */
export function sendError(reply: FastifyReply, error: EngineError): FastifyReply {
  logFailure(reply.request, error);
  reply.header('x-request-id', reply.request.id);
  if (error.retryAfterMs !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterMs / 1000)));
  return reply.code(error.status).type('application/json').send(errorBody(error, reply.request.id));
}
