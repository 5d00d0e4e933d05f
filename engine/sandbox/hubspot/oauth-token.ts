/**
 * `POST /oauth/v1/token` (API-NOTES A2; spec `hubspot-oauth-v1.json`).
 */
import type { FakeRequest } from '../fake-server.js';
import { formFields, tokenEndpoint, type OAuthGrant, type TokenCheck, type TokenRejection, type TokenRequest } from '../oauth/index.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { PORTAL_ID } from './object-types.js';

const INSTALLING_USER_ID = 4_117_001;

/**
 * A 400 from the token endpoint: `{status, message, correlationId, requestId}` as observed for
 * BAD_REFRESH_TOKEN (A2 [3p]), plus `category` (= status) so it validates against the spec's `Error`.
 */
function oauthError(status: string, message: string): TokenRejection {
  return (req) => jsonResponse(400, { status, message, correlationId: req.requestId, requestId: req.requestId, category: status });
}

/** HubSpot's answers, in its order of checks (statuses other than BAD_REFRESH_TOKEN are [unverified]). */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  // The fake has no authorize flow, so no code is ever valid.
  grant_type_authorization_code: oauthError('BAD_AUTH_CODE', 'missing or unknown auth code'),
  grant_type: oauthError('BAD_GRANT_TYPE', 'missing or unknown grant type; this endpoint supports refresh_token'),
  client_id: oauthError('BAD_CLIENT_ID', 'missing or invalid client id'),
  client_secret: oauthError('BAD_CLIENT_SECRET', 'missing or invalid client secret'),
  refresh_token: oauthError('BAD_REFRESH_TOKEN', 'missing or invalid refresh token'),
};

/**
 * The body is form-encoded (A2 [spec]); the spec also declares `client_secret` and
 * `refresh_token` as query parameters, so each field is read from the query when the form lacks it.
 */
function readRequest(req: FakeRequest): TokenRequest {
  const form = formFields(req);
  const field = (name: string): string | undefined => lastParam(form, name) ?? lastParam(req.query, name);
  return {
    grantType: field('grant_type'),
    refreshToken: field('refresh_token'),
    clientId: field('client_id'),
    clientSecret: field('client_secret'),
    basic: false,
  };
}

/**
 * Exchanges a refresh token for an access token. Answers `{access_token, refresh_token (the same
 * one: HubSpot refresh tokens do not rotate), expires_in: 1800, token_type: "bearer", token_use,
 * hub_id, user_id, scopes}`. Errors, checked in order: grant type missing or other than
 * refresh_token -> BAD_GRANT_TYPE (authorization_code -> BAD_AUTH_CODE); unknown client_id ->
 * BAD_CLIENT_ID; wrong client_secret -> BAD_CLIENT_SECRET; unknown or revoked refresh token ->
 * BAD_REFRESH_TOKEN "missing or invalid refresh token" (A2).
 * Why: the engine's OAuth refresh is tested against exactly these answers.
 */
export function oauthToken(grant: OAuthGrant): (req: FakeRequest) => FakeResponse {
  return tokenEndpoint(grant, {
    read: readRequest,
    rejections: REJECTIONS,
    issued: (_req, tokens) =>
      jsonResponse(200, {
        token_type: 'bearer',
        refresh_token: tokens.refreshToken,
        access_token: tokens.accessToken,
        expires_in: tokens.expiresIn,
        token_use: 'access_token',
        hub_id: PORTAL_ID,
        user_id: INSTALLING_USER_ID,
        scopes: tokens.scopes,
      }),
  });
}
