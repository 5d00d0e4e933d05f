/**
 * Bearer-token check of the Asana API routes (API-NOTES B1, B6).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { notAuthorized } from './errors.js';
import { checkToken, type AsanaCredentials, type TokenScheme } from './credentials.js';

/** The caller's token and scheme, or the 401 to answer. */
export type AuthOutcome = { ok: true; token: string; scheme: TokenScheme } | { ok: false; response: FakeResponse };

/**
 * The bearer token of a request, if its Authorization header has one.
 * Why: limits are per token (B7), so the limiter needs it even before a route authenticates.
 */
export function bearerToken(req: Pick<FakeRequest, 'headers'>): string | undefined {
  const header = req.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

/**
 * Accepts only tokens the fake issued and that have not expired; anything else gets B6's
 * `{"errors":[{"message":"Not Authorized"}]}` 401.
 * Why: DESIGN.md §8: auth bugs must not hide behind a lenient fake.
 */
export function authenticate(req: FakeRequest, credentials: AsanaCredentials): AuthOutcome {
  const token = bearerToken(req);
  if (!token) return { ok: false, response: notAuthorized() };
  const status = checkToken(credentials, token);
  if (status.state !== 'valid') return { ok: false, response: notAuthorized() };
  return { ok: true, token, scheme: status.scheme };
}
