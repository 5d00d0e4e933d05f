import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the caller's connection closes before its answer is written. Passed
 * to the upstream call, it cancels the call (CANCELLED): a caller that gave up (a closed tab, the
 * hosted client's own `signal`, a proxy's timeout) no longer holds an upstream connection and a
 * slot of the connector's rate limit until the upstream answers or the deadline passes.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the caller closed its connection before the answer'));
  });
  return controller.signal;
}
