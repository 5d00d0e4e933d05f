import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ExpectationFailedError, InvalidRequestError, NotFoundError } from '../errors.js';
import { answerOnSocket } from './client-error.js';
import { errorBody } from './error-reply.js';
import { newRequestId } from './request-id.js';

/**
 * Takes over the answers Node's HTTP server would otherwise write itself, in its own shape and
 * without a request id (lib/_http_server.js): CONNECT (no listener: the socket is dropped without
 * an answer), an `Expect` other than 100-continue (a bare 417), and an HTTP/1.1 request without
 * Host (a bare 400, switched off with `requireHostHeader: false` in frameworkOptions and checked
 * here instead).
 */
export function registerNodeAnswers(app: FastifyInstance): void {
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = newRequestId();
    app.log.info({ reqId: requestId, method: request.method }, 'CONNECT refused');
    answerOnSocket(socket, new NotFoundError('no route matches this method and path'), requestId);
  });
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = newRequestId();
    app.log.info({ reqId: requestId }, 'unsupported Expect header refused');
    const body = JSON.stringify(errorBody(new ExpectationFailedError('the only expectation supported is Expect: 100-continue'), requestId));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
  });
  // A callback hook: it runs on every request, where an async one would cost a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(new InvalidRequestError('an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)'));
      return;
    }
    done();
  });
}
