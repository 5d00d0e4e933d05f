/**
 * `POST https://app.gong.io/oauth2/generate-customer-token` (API-NOTES C.1). Not in the spec
 * document; its shape comes from C.1's sources (Airbyte, Nango, amp-labs).
 */
import type { FakeHandler, FakeRequest } from '../fake-server.js';
import { tokenEndpoint, type TokenCheck, type TokenRejection, type TokenRequest } from '../oauth/index.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { basicCredentials } from './authenticate.js';
import type { GongContext } from './context.js';
import { frameworkError } from './errors.js';

const NO_STORE = { 'cache-control': 'no-store' };

/** An OAuth error body `{error, error_description}` (C.1: reuse -> 400 invalid_grant). */
function errorBody(status: number, error: string, description: string): FakeResponse {
  return jsonResponse(status, { error, error_description: description }, NO_STORE);
}

function oauthError(status: number, error: string, description: string): TokenRejection {
  return () => errorBody(status, error, description);
}

/** Gong's answers in its order of checks; only invalid_grant is observed (C.1), the others follow RFC 6749 §5.2 [unverified]. */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  client: oauthError(401, 'invalid_client', 'Bad client credentials: send Authorization: Basic base64(client_id:client_secret)'),
  grant_type_missing: oauthError(400, 'invalid_request', 'Missing grant_type: the parameters of this endpoint go on the query string'),
  code_missing: oauthError(400, 'invalid_request', 'Missing code: the parameters of this endpoint go on the query string'),
  redirect_uri_missing: oauthError(400, 'invalid_request', 'Missing redirect_uri: the parameters of this endpoint go on the query string'),
  code_reused: oauthError(400, 'invalid_grant', 'Invalid authorization code: it was already used'),
  code_expired: oauthError(400, 'invalid_grant', 'Invalid authorization code: it expired'),
  code: oauthError(400, 'invalid_grant', 'Invalid authorization code'),
  redirect_uri: oauthError(400, 'invalid_grant', 'Invalid redirect_uri: it differs from the one the code was issued for'),
  pkce: oauthError(400, 'invalid_grant', 'Invalid code_verifier'),
  grant_type_unsupported: (_req, request) => errorBody(400, 'unsupported_grant_type', `Unsupported grant type: ${request.grantType}`),
  refresh_token_missing: oauthError(400, 'invalid_request', 'Missing refresh_token: the parameters of this endpoint go on the query string'),
  refresh_token_rotated: oauthError(400, 'invalid_grant', 'Invalid refresh token: it was already used (refresh tokens are single-use)'),
  refresh_token_revoked: oauthError(400, 'invalid_grant', 'Invalid refresh token: it was revoked'),
  refresh_token_unknown: oauthError(400, 'invalid_grant', 'Invalid refresh token'),
};

/**
 * The parameters travel on the query string (`grant_type=refresh_token&refresh_token=...`) and the
 * client authenticates with `Authorization: Basic base64(client_id:client_secret)` (C.1); a form
 * body is not read, so a client that sends the parameters there gets invalid_request.
 */
function readRequest(req: FakeRequest): TokenRequest {
  const client = basicCredentials(req);
  return {
    grantType: lastParam(req.query, 'grant_type'),
    refreshToken: lastParam(req.query, 'refresh_token'),
    code: lastParam(req.query, 'code'),
    redirectUri: lastParam(req.query, 'redirect_uri'),
    codeVerifier: lastParam(req.query, 'code_verifier'),
    clientId: client?.user,
    clientSecret: client?.password,
    basic: client !== undefined,
  };
}

/**
 * Exchanges an authorization code (`grant_type=authorization_code&code&client_id&redirect_uri` on
 * the query string, C.1) or a refresh token. Success answers `{access_token, refresh_token (a NEW one: single-use
 * rotation), scope, token_type: "bearer", expires_in: 86400, api_base_url_for_customer}`. Errors:
 * bad or missing client credentials -> 401 invalid_client; missing grant_type or refresh_token ->
 * 400 invalid_request (also a code grant without code or redirect_uri); an old, revoked or unknown
 * refresh token -> 400 invalid_grant; an unknown, expired or reused code or another redirect_uri ->
 * 400 invalid_grant; other grant types -> 400 unsupported_grant_type.
 * The route lives on the main host only (app.gong.io); the customer API host does not have it.
 */
export function generateCustomerToken(ctx: GongContext, customerBaseUrl: () => string): FakeHandler {
  const endpoint = tokenEndpoint(ctx.credentials.grant, {
    read: readRequest,
    rejections: REJECTIONS,
    issued: (_req, tokens) =>
      jsonResponse(
        200,
        {
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          scope: tokens.scopes.join(' '),
          token_type: 'bearer',
          expires_in: tokens.expiresIn,
          api_base_url_for_customer: customerBaseUrl(),
        },
        NO_STORE,
      ),
  });
  return (req) => (ctx.hostOf(req) === 'customer' ? frameworkError(req, 404) : endpoint(req));
}
