import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { HeadersTooLargeError, InvalidRequestError, PayloadTooLargeError, RequestTimeoutError, type EngineError } from '../errors.js';
import { errorBody } from './error-reply.js';
import { newRequestId } from './request-id.js';

/** How long a refused client's socket may stay half-open so its answer gets through. */
const CLOSE_DELAY_MS = 1000;

/** Node's HTTP parser errors (llhttp codes, https://github.com/nodejs/llhttp) that are not "malformed request". */
const PARSER_ERRORS: Record<string, () => EngineError> = {
  // The request line and headers together exceed --max-http-header-size (16 KiB by default).
  HPE_HEADER_OVERFLOW: () => new HeadersTooLargeError('the request line and headers (the query string included) are larger than 16 KB'),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: () => new PayloadTooLargeError('the chunk extensions of the request body are too large'),
  ERR_HTTP_REQUEST_TIMEOUT: () => new RequestTimeoutError('the request was not received in time'),
};

/**
 * Answers a request Node's HTTP parser refused before fastify saw it (the server's 'clientError'
 * event: headers over 16 KB, a malformed request line, a timeout), in the error shape of every
 * other answer, with a fresh request id in the body, the `x-request-id` header and the log line.
 * Like Node's own handler (lib/_http_server.js socketOnError), it writes only when no answer has
 * started on the socket, and then closes it: the rest of the stream cannot be trusted.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = newRequestId();
  const engineError = (error.code ? PARSER_ERRORS[error.code] : undefined)?.() ?? new InvalidRequestError('the HTTP request is malformed');
  this.log.info({ reqId: requestId, code: error.code, status: engineError.status }, 'client error: request refused by the HTTP parser');
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || started) {
    socket.destroy(error);
    return;
  }
  answerOnSocket(socket, engineError, requestId);
}

/**
 * Writes an error answer straight on a socket no fastify reply exists for, and closes it. It ends
 * the socket, then destroys it a moment later: destroying at once, with the client's unread bytes
 * still in the kernel buffer, sends a reset that can discard the answer before the client reads it.
 */
export function answerOnSocket(socket: Duplex, engineError: EngineError, requestId: string): void {
  const body = JSON.stringify(errorBody(engineError, requestId));
  socket.end(
    [
      `HTTP/1.1 ${engineError.status} ${STATUS_CODES[engineError.status] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${requestId}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  setTimeout(() => socket.destroy(), CLOSE_DELAY_MS).unref();
}
