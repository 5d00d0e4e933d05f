/**
 * `POST https://app.gong.io/oauth2/generate-customer-token` (API-NOTES C.1). Not in the spec
 * document; its shape comes from C.1's sources (Airbyte, Nango, amp-labs).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { basicCredentials } from './authenticate.js';
import type { GongContext } from './context.js';
import { frameworkError } from './errors.js';
import { ACCESS_TOKEN_TTL_SECONDS, GRANTED_SCOPES } from './token-store.js';

/** An OAuth error body `{error, error_description}` (C.1: reuse -> 400 invalid_grant). */
function oauthError(status: number, error: string, description: string): FakeResponse {
  return jsonResponse(status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

/**
 * Exchanges a refresh token. The parameters travel on the query string
 * (`grant_type=refresh_token&refresh_token=...`) and the client authenticates with
 * `Authorization: Basic base64(client_id:client_secret)` (C.1); parameters in a form body are not
 * read, so a client that sends them there gets invalid_request. Success answers
 * `{access_token, refresh_token (a NEW one: single-use rotation), scope, token_type: "bearer",
 * expires_in: 86400, api_base_url_for_customer}`. Errors: bad or missing client credentials ->
 * 401 invalid_client; missing grant_type or refresh_token -> 400 invalid_request; an old, revoked
 * or unknown refresh token -> 400 invalid_grant; an authorization code (the fake has no authorize
 * step) -> 400 invalid_grant; other grant types -> 400 unsupported_grant_type. Only the
 * invalid_grant case is observed (C.1); the others follow RFC 6749 §5.2 [unverified].
 * The route lives on the main host only (app.gong.io); the customer API host does not have it.
 */
export function generateCustomerToken(ctx: GongContext, req: FakeRequest, customerBaseUrl: string): FakeResponse {
  if (ctx.hostOf(req) === 'customer') return frameworkError(req, 404);
  const client = basicCredentials(req);
  if (!client || !ctx.tokens.isClient(client.user, client.password)) {
    return oauthError(401, 'invalid_client', 'Bad client credentials: send Authorization: Basic base64(client_id:client_secret)');
  }
  const grantType = lastParam(req.query, 'grant_type');
  if (!grantType) {
    return oauthError(400, 'invalid_request', 'Missing grant_type: the parameters of this endpoint go on the query string');
  }
  if (grantType === 'authorization_code') return oauthError(400, 'invalid_grant', 'Invalid authorization code');
  if (grantType !== 'refresh_token') return oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);
  const refreshToken = lastParam(req.query, 'refresh_token');
  if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing refresh_token: the parameters of this endpoint go on the query string');
  const rotated = ctx.tokens.rotate(refreshToken);
  if (!rotated.ok) {
    const description = {
      rotated: 'Invalid refresh token: it was already used (refresh tokens are single-use)',
      revoked: 'Invalid refresh token: it was revoked',
      unknown: 'Invalid refresh token',
    }[rotated.reason];
    return oauthError(400, 'invalid_grant', description);
  }
  return jsonResponse(
    200,
    {
      access_token: ctx.tokens.issueAccessToken(ACCESS_TOKEN_TTL_SECONDS),
      refresh_token: rotated.refreshToken,
      scope: GRANTED_SCOPES.join(' '),
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      api_base_url_for_customer: customerBaseUrl,
    },
    { 'cache-control': 'no-store' },
  );
}
