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

/**
 * HubSpot's answers, in its order of checks. Observed: BAD_REFRESH_TOKEN (A2) and BAD_AUTH_CODE
 * "missing or unknown auth code" ([3p] HGData/mk-node-hubspot #87); the others are [unverified]. An
 * expired or already exchanged code is "unknown" to HubSpot as well [unverified]; HubSpot's
 * legacy flow documents no PKCE, so no code carries a challenge.
 */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  grant_type: oauthError('BAD_GRANT_TYPE', 'missing or unknown grant type; this endpoint supports authorization_code and refresh_token'),
  client_id: oauthError('BAD_CLIENT_ID', 'missing or invalid client id'),
  client_secret: oauthError('BAD_CLIENT_SECRET', 'missing or invalid client secret'),
  code: oauthError('BAD_AUTH_CODE', 'missing or unknown auth code'),
  pkce: oauthError('BAD_AUTH_CODE', 'missing or unknown auth code'),
  redirect_uri: oauthError('BAD_REDIRECT_URI', 'redirect_uri does not match the redirect URI the code was issued for'),
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
    code: field('code'),
    redirectUri: field('redirect_uri'),
    codeVerifier: field('code_verifier'),
    clientId: field('client_id'),
    clientSecret: field('client_secret'),
    basic: false,
  };
}

/**
 * Exchanges an authorization code (`grant_type=authorization_code&code&redirect_uri&client_id&
 * client_secret`, A2 [spec]) or a refresh token for an access token. Answers `{access_token, refresh_token (the same
 * one: HubSpot refresh tokens do not rotate; a new one for a code), expires_in: 1800, token_type: "bearer", token_use,
 * hub_id, user_id, scopes}`. Errors, checked in order: grant type missing or other than
 * refresh_token/authorization_code -> BAD_GRANT_TYPE; unknown client_id -> BAD_CLIENT_ID; wrong
 * client_secret -> BAD_CLIENT_SECRET; an unknown, expired or reused code -> BAD_AUTH_CODE; another
 * redirect_uri than the authorization's -> BAD_REDIRECT_URI; unknown or revoked refresh token ->
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
