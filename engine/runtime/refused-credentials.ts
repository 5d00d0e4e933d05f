import { EngineError, InvalidCredentialsError } from '../errors.js';

/** What a passed credentials check read, and with which auth scheme. */
export interface CredentialsCheckResult {
  entity: string;
  action: string;
  auth_scheme: string;
}

/**
 * Upstream statuses that refuse the credentials: the check's params are the manifest's own,
 * checked at load, so a 400, 401 or 403 answers the credentials, from the API or from an OAuth
 * token endpoint (an OAuth server answers 400 invalid_client for an unknown client id, RFC 6749 section 5.2).
 */
const REFUSING_STATUSES = new Set([400, 401, 403]);

function isRefusal(error: EngineError): boolean {
  return error.code === 'REAUTH_REQUIRED' || REFUSING_STATUSES.has(error.upstream?.status ?? 0);
}

/**
 * Turns a failed credentials check into INVALID_CREDENTIALS when the upstream refused the
 * credentials, carrying its (already redacted) reason and status; any other failure (the upstream
 * down, a host the egress rules refuse) is returned as it was, since it says nothing about them.
 */
export function refusedCredentials(error: unknown, upstreamName: string, label: string): unknown {
  if (!(error instanceof EngineError) || !isRefusal(error)) return error;
  const reason = error.upstream?.message || error.message;
  const status = error.upstream ? ` (${error.upstream.status})` : '';
  return new InvalidCredentialsError(`${upstreamName} refused these credentials${status}: ${reason}`, {
    details: [{ path: '/credentials', message: `refused by ${upstreamName} on the check read ${label}: ${reason}` }],
    ...(error.upstream ? { upstream: error.upstream } : {}),
    cause: error,
  });
}
