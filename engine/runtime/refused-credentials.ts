import { EngineError, InvalidCredentialsError } from '../errors.js';

/** What a passed credentials check read, and with which auth scheme. */
export interface CredentialsCheckResult {
  entity: string;
  action: string;
  auth_scheme: string;
}

/** Codes that mean the upstream refused the credentials themselves (a 401 or 403, a refused refresh token). */
const REFUSALS = new Set(['REAUTH_REQUIRED', 'FORBIDDEN']);

/**
 * Turns a failed credentials check into INVALID_CREDENTIALS when the upstream refused the
 * credentials, carrying its (already redacted) reason and status; any other failure (the upstream
 * down, a host the egress rules refuse) is returned as it was, since it says nothing about them.
 */
export function refusedCredentials(error: unknown, upstreamName: string, label: string): unknown {
  if (!(error instanceof EngineError) || !REFUSALS.has(error.code)) return error;
  const reason = error.upstream?.message || error.message;
  const status = error.upstream ? ` (${error.upstream.status})` : '';
  return new InvalidCredentialsError(`${upstreamName} refused these credentials${status}: ${reason}`, {
    details: [{ path: '/credentials', message: `refused by ${upstreamName} on the check read ${label}: ${reason}` }],
    ...(error.upstream ? { upstream: error.upstream } : {}),
    cause: error,
  });
}
