/**
 * `POST /auth/o2/token`: the Login with Amazon token endpoint (API-NOTES A.2), served by the same
 * fake as the API (the engine sends token requests to the base URL's origin).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam, type ParamMap } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { lwaError } from './errors.js';
import { ACCESS_TOKEN_TTL_SECONDS, type TokenStore } from './token-store.js';

/**
 * Answers a refresh-token grant (form-encoded `grant_type=refresh_token&refresh_token&client_id&
 * client_secret`; the client may also authenticate with HTTP Basic, as OAuth2 allows) with
 * `{access_token: "Atza|...", refresh_token: <the same Atzr|...>, token_type: "bearer",
 * expires_in: 3600}`.
 * Errors (OAuth2 codes, A.2): a missing parameter -> 400 `invalid_request` "The request is missing
 * a required parameter : <name>"; another grant type -> 400 `unsupported_grant_type` (an
 * authorization code -> 400 `invalid_grant`, the fake issues none); unknown client or wrong secret
 * -> 401 `invalid_client`; unknown or revoked refresh token -> 400 `invalid_grant` "The request
 * has an invalid grant parameter : refresh_token".
 */
export function lwaToken(tokens: TokenStore, req: FakeRequest): FakeResponse {
  const form = formOf(req);
  const basic = basicCredentials(req);
  const grantType = lastParam(form, 'grant_type');
  if (!grantType) return missing('grant_type');
  if (grantType === 'authorization_code') {
    return lwaError(400, 'invalid_grant', 'The request has an invalid grant parameter : code');
  }
  if (grantType !== 'refresh_token') {
    return lwaError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server');
  }
  const refreshToken = lastParam(form, 'refresh_token');
  if (!refreshToken) return missing('refresh_token');
  const clientId = lastParam(form, 'client_id') ?? basic?.id;
  if (!clientId) return missing('client_id');
  const clientSecret = lastParam(form, 'client_secret') ?? basic?.secret;
  if (!clientSecret) return missing('client_secret');
  if (clientId !== tokens.clientId || clientSecret !== tokens.clientSecret) {
    return lwaError(401, 'invalid_client', 'Client authentication failed');
  }
  if (!tokens.isRefreshTokenValid(refreshToken)) {
    return lwaError(400, 'invalid_grant', 'The request has an invalid grant parameter : refresh_token');
  }
  return jsonResponse(
    200,
    {
      access_token: tokens.issueAccessToken(ACCESS_TOKEN_TTL_SECONDS),
      refresh_token: tokens.refreshToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    },
    { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' },
  );
}

function missing(name: string): FakeResponse {
  return lwaError(400, 'invalid_request', `The request is missing a required parameter : ${name}`);
}

/** The form fields, only when the body is `application/x-www-form-urlencoded` (A.2). */
function formOf(req: FakeRequest): ParamMap {
  const header = req.headers['content-type'];
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  const isForm = value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
  return isForm && req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as ParamMap) : {};
}

function basicCredentials(req: FakeRequest): { id: string; secret: string } | undefined {
  const header = req.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded; a malformed escape is taken literally. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
