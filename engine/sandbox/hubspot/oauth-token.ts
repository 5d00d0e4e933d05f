/**
 * `POST /oauth/v1/token` (API-NOTES A2; spec `hubspot-oauth-v1.json`).
 */
import type { FakeRequest } from '../fake-server.js';
import type { ParamMap } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { PORTAL_ID } from './object-types.js';
import { ACCESS_TOKEN_TTL_SECONDS, type TokenStore } from './token-store.js';

/** Scopes reported for the fake OAuth app. */
const GRANTED_SCOPES = [
  'oauth',
  'crm.objects.contacts.read',
  'crm.objects.companies.read',
  'crm.objects.deals.read',
  'tickets',
  'crm.objects.custom.read',
  'crm.schemas.custom.read',
];
const INSTALLING_USER_ID = 4_117_001;

/**
 * A 400 from the token endpoint: `{status, message, correlationId, requestId}` as observed for
 * BAD_REFRESH_TOKEN (A2 [3p]), plus `category` (= status) so it validates against the spec's `Error`.
 */
function oauthError(status: string, message: string, correlationId: string): FakeResponse {
  return jsonResponse(400, { status, message, correlationId, requestId: correlationId, category: status });
}

function field(form: ParamMap, query: ParamMap, name: string): string | undefined {
  const value = form[name] ?? query[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * Exchanges a refresh token for an access token. The body is form-encoded (A2 [spec]); the spec
 * also declares `client_secret` and `refresh_token` as query parameters, so those are read from
 * the query when the form lacks them. Answers `{access_token, refresh_token (the same one: HubSpot
 * refresh tokens do not rotate), expires_in: 1800, token_type: "bearer", token_use, hub_id, user_id,
 * scopes}`. Errors, checked in order (statuses other than BAD_REFRESH_TOKEN are [unverified]):
 * grant type missing or other than refresh_token -> BAD_GRANT_TYPE (authorization_code ->
 * BAD_AUTH_CODE: the fake has no authorize flow); unknown client_id -> BAD_CLIENT_ID; wrong
 * client_secret -> BAD_CLIENT_SECRET; unknown or revoked refresh token -> BAD_REFRESH_TOKEN
 * "missing or invalid refresh token" (A2).
 * Why: the engine's OAuth refresh is tested against exactly these answers.
 */
export function oauthToken(tokens: TokenStore, req: FakeRequest): FakeResponse {
  const form: ParamMap = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) && isFormRequest(req) ? (req.body as ParamMap) : {};
  const grantType = field(form, req.query, 'grant_type');
  const id = req.requestId;
  if (grantType === 'authorization_code') return oauthError('BAD_AUTH_CODE', 'missing or unknown auth code', id);
  if (grantType !== 'refresh_token') return oauthError('BAD_GRANT_TYPE', 'missing or unknown grant type; this endpoint supports refresh_token', id);
  if (field(form, req.query, 'client_id') !== tokens.clientId) return oauthError('BAD_CLIENT_ID', 'missing or invalid client id', id);
  if (field(form, req.query, 'client_secret') !== tokens.clientSecret) return oauthError('BAD_CLIENT_SECRET', 'missing or invalid client secret', id);
  const refreshToken = field(form, req.query, 'refresh_token') ?? '';
  if (!tokens.isRefreshTokenValid(refreshToken)) return oauthError('BAD_REFRESH_TOKEN', 'missing or invalid refresh token', id);
  return jsonResponse(200, {
    token_type: 'bearer',
    refresh_token: tokens.refreshToken,
    access_token: tokens.issueAccessToken(ACCESS_TOKEN_TTL_SECONDS),
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    token_use: 'access_token',
    hub_id: PORTAL_ID,
    user_id: INSTALLING_USER_ID,
    scopes: GRANTED_SCOPES,
  });
}

function isFormRequest(req: FakeRequest): boolean {
  const header = req.headers['content-type'];
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  return value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
