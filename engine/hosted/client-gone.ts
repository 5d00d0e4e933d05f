import type { FastifyReply } from 'fastify';
import { CallerGone } from '../http/index.js';

/**
 * Aborts when the caller's connection closes before its answer is written. Passed to the upstream
 * call, it cancels the call (CANCELLED): a caller that gave up (a closed tab, the hosted client's
 * own `signal`, a proxy's timeout) no longer holds an upstream connection and a slot of the
 * connector's rate limit until the upstream answers or the deadline passes. A CallerGone rather
 * than an AbortSignal: see caller-gone.ts for what that saves on every request.
 */
export function clientGone(reply: FastifyReply): CallerGone {
  const gone = new CallerGone();
  const response = reply.raw;
  // 'close' fires once per response: after the answer is written (nothing to cancel) or when the connection drops first.
  response.on('close', () => {
    if (!response.writableFinished) gone.abort(new Error('the caller closed its connection before the answer'));
  });
  return gone;
}
