import type { FastifyRequest } from 'fastify';
import type { EngineError } from '../errors.js';

/** Answers that mean an upstream account needs attention, though their status is a 4xx. */
const ACCOUNT_FAILURES = new Set(['RATE_LIMITED', 'REAUTH_REQUIRED']);
/** Logged where they are mapped: INTERNAL at error with its cause, HOST_NOT_ALLOWED at warn with its rule. */
const LOGGED_ELSEWHERE = new Set(['INTERNAL', 'HOST_NOT_ALLOWED']);

/**
 * Logs an error answer that is a failure of the service or of an upstream, at warn: every 5xx
 * (the upstream failed, timed out, looped; the service is closing) and the upstream accounts'
 * own refusals (rate limited, authorization revoked). Fastify's own line for every request is at
 * info, so without this an operator filtering on warn would miss them. A caller's mistakes (the
 * other 4xx) are not failures and stay at info. Messages and upstream quotes are redacted where
 * the errors are made, so no secret reaches the log.
 */
export function logFailure(request: FastifyRequest, error: EngineError): void {
  if (LOGGED_ELSEWHERE.has(error.code)) return;
  if (error.status < 500 && !ACCOUNT_FAILURES.has(error.code)) return;
  request.log.warn({ code: error.code, status: error.status, ...(error.upstream ? { upstream: error.upstream } : {}) }, error.message);
}
