/**
 * Bearer-token check of the HubSpot API routes (API-NOTES A2, A6).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { expiredAuthentication, invalidAuthentication } from './errors.js';
import { checkToken, type HubspotCredentials, type TokenScheme } from './credentials.js';

/** The caller's scheme, or the 401 to answer. */
export type AuthOutcome = { ok: true; scheme: TokenScheme } | { ok: false; response: FakeResponse };

/**
 * The bearer token of a request, if its Authorization header has one.
 * Why: the rate limiter picks the caller's bucket even before a route authenticates.
 */
export function bearerToken(req: FakeRequest): string | undefined {
  const header = req.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

/**
 * Accepts only tokens the fake issued (DESIGN.md §8: "a token they did not issue gets the
 * upstream's 401, so auth bugs cannot hide").
 */
export function authenticate(req: FakeRequest, credentials: HubspotCredentials, now: number = Date.now()): AuthOutcome {
  const token = bearerToken(req);
  if (!token) return { ok: false, response: invalidAuthentication(req.requestId) };
  const status = checkToken(credentials, token);
  if (status.state === 'valid') return { ok: true, scheme: status.scheme };
  if (status.state === 'expired') return { ok: false, response: expiredAuthentication(req.requestId, status.expiredAtMs, now) };
  return { ok: false, response: invalidAuthentication(req.requestId) };
}
