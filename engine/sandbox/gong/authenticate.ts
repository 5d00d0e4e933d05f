/**
 * Authorization check of the Gong API routes (API-NOTES C.1): Basic with the access key pair on
 * either host; Bearer (OAuth) only on the customer host named by `api_base_url_for_customer`.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { isAccessKey, type GongCredentials } from './credentials.js';
import { gongError } from './errors.js';

/** Which of the fake's two hosts a request reached. */
export type GongHost = 'main' | 'customer';

/** The caller's scheme, or the 401 to answer. */
export type AuthOutcome = { ok: true; scheme: 'access_key' | 'oauth' } | { ok: false; response: FakeResponse };

/** 401 texts. Only the "revoked" wording is observed (C.1); the others are the fake's own [unverified]. */
export const AUTH_MESSAGES = {
  missing: 'Access denied: the request has no Basic or Bearer Authorization header',
  badKey: 'Access denied: invalid access key or access key secret',
  revoked: 'The access token has been revoked',
  expired: 'The access token has expired',
} as const;

/** The `Authorization` header split into scheme and credentials. */
export function authorizationHeader(req: FakeRequest): { scheme: string; value: string } | undefined {
  const header = req.headers['authorization'];
  const text = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!text) return undefined;
  const space = text.indexOf(' ');
  if (space < 0) return { scheme: text.toLowerCase(), value: '' };
  return { scheme: text.slice(0, space).toLowerCase(), value: text.slice(space + 1).trim() };
}

/**
 * Decodes Basic credentials `base64(user:password)` (RFC 7617: split at the first colon).
 * Why: both the access key (API) and the OAuth client (token endpoint) use it.
 */
export function basicCredentials(req: FakeRequest): { user: string; password: string } | undefined {
  const auth = authorizationHeader(req);
  if (!auth || auth.scheme !== 'basic' || !/^[A-Za-z0-9+/]+={0,2}$/.test(auth.value)) return undefined;
  const decoded = Buffer.from(auth.value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Accepts only credentials the fake issued (DESIGN.md §8). A Bearer token is answered with 401
 * "The access token has been revoked" on the main host whatever it is (C.1: "All API calls must go
 * to api_base_url_for_customer"; non-US tenants get "access token has been revoked" on the wrong
 * host); on the customer host an unknown token gets the same text and an expired one "has expired".
 */
export function authenticate(req: FakeRequest, credentials: GongCredentials, host: GongHost): AuthOutcome {
  const auth = authorizationHeader(req);
  if (!auth) return deny(req, AUTH_MESSAGES.missing);
  if (auth.scheme === 'basic') {
    const basic = basicCredentials(req);
    if (!basic || !isAccessKey(credentials, basic.user, basic.password)) return deny(req, AUTH_MESSAGES.badKey);
    return { ok: true, scheme: 'access_key' };
  }
  if (auth.scheme === 'bearer') {
    if (host === 'main') return deny(req, AUTH_MESSAGES.revoked);
    const status = credentials.grant.accessTokens.check(auth.value);
    if (status.state === 'valid') return { ok: true, scheme: 'oauth' };
    return deny(req, status.state === 'expired' ? AUTH_MESSAGES.expired : AUTH_MESSAGES.revoked);
  }
  return deny(req, AUTH_MESSAGES.missing);
}

function deny(req: FakeRequest, message: string): AuthOutcome {
  return { ok: false, response: gongError(req, 401, message) };
}
