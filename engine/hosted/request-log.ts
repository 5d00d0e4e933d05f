import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it ends: method, URL, status and time, as plain fields
 * (no serializers run). fastify's default writes two (an `incoming request` line with the whole
 * request, then `request completed`): twice the JSON building and twice the write on the hot path.
 * The arrival line is still there at `debug` (ENGINE_LOG_LEVEL=debug), in fastify's own shape,
 * for following a request that never ends; at `info` it costs a call of a no-op. Errors keep
 * fastify's lines.
 */
/**
 * The URL as logged: a Connect link's token (a bearer secret for its session) and the OAuth
 * callback's query (its code and state) are replaced, so no log line can replay them.
 */
export function loggedUrl(url: string): string {
  if (!url.startsWith('/connect/')) return url;
  if (url.startsWith('/connect/callback')) return url.replace(/\?.*$/, '?[REDACTED]');
  return url.replace(/^\/connect\/(status\/)?[^/?]+/, (_m, status: string | undefined) => `/connect/${status ?? ''}[REDACTED]`);
}

export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // Below its level pino's debug is a no-op function: the request is not serialized.
    request.log.debug({ req: request.url.startsWith('/connect/') ? { method: request.method, url: loggedUrl(request.url) } : request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.info({ method: request.method, url: loggedUrl(request.url), statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
  }
}
