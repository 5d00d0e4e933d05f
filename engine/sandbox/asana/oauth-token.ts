/**
 * `POST /-/oauth_token` at the server root, not under `/api/1.0` (API-NOTES B1).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam, type ParamMap } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { AsanaUser } from './model.js';
import { ACCESS_TOKEN_TTL_SECONDS, type TokenStore } from './token-store.js';

/** RFC 6749 §5.2 descriptions; Asana's own wording is [unverified]. */
const DESCRIPTIONS = {
  invalid_request: (name: string) => `The request is missing a required parameter: ${name}.`,
  invalid_client: 'Client authentication failed (unknown client_id or wrong client_secret).',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_grant:
    'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
};

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): FakeResponse {
  return jsonResponse(status, { error, error_description: description }, headers);
}

/** Client credentials from HTTP Basic, if the request used it. */
function basicCredentials(req: FakeRequest): { id: string; secret: string } | undefined {
  const header = req.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { id: decodeURIComponent(decoded), secret: '' };
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

function isForm(req: FakeRequest): boolean {
  const header = req.headers['content-type'];
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  return value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * Exchanges a refresh token for an access token. The body is form-encoded (B1 [3p]); the client
 * authenticates with `client_id` + `client_secret` form fields or HTTP Basic. Answers `{access_token,
 * token_type: "bearer", expires_in: 3600, refresh_token (the same one: Asana does not rotate it,
 * B1 [3p] observed), data: {id, gid, name, email}}` (the token owner, B1 [3p docs copy]).
 * Errors follow RFC 6749 §5.2 (Asana's exact descriptions are [unverified]), checked in order:
 * unknown client or wrong secret -> `invalid_client` (401 with `WWW-Authenticate` when HTTP Basic
 * was used, 400 otherwise); no `grant_type` -> 400 `invalid_request`; a grant type other than
 * `refresh_token`/`authorization_code` -> 400 `unsupported_grant_type`; `authorization_code` ->
 * 400 `invalid_grant` (the fake issues no codes); no `refresh_token` -> 400 `invalid_request`;
 * an unknown or revoked refresh token -> 400 `invalid_grant`.
 * Why: the engine's OAuth refresh is tested against exactly these answers.
 */
export function oauthToken(tokens: TokenStore, me: AsanaUser, req: FakeRequest): FakeResponse {
  const form: ParamMap = isForm(req) && req.body !== null && typeof req.body === 'object' ? (req.body as ParamMap) : {};
  const basic = basicCredentials(req);
  const clientId = basic?.id ?? lastParam(form, 'client_id');
  const clientSecret = basic?.secret ?? lastParam(form, 'client_secret');
  if (clientId !== tokens.clientId || clientSecret !== tokens.clientSecret) {
    return basic
      ? oauthError(401, 'invalid_client', DESCRIPTIONS.invalid_client, { 'WWW-Authenticate': 'Basic realm="Asana"' })
      : oauthError(400, 'invalid_client', DESCRIPTIONS.invalid_client);
  }
  const grantType = lastParam(form, 'grant_type');
  if (grantType === undefined || grantType === '') return oauthError(400, 'invalid_request', DESCRIPTIONS.invalid_request('grant_type'));
  if (grantType === 'authorization_code') return oauthError(400, 'invalid_grant', DESCRIPTIONS.invalid_grant);
  if (grantType !== 'refresh_token') return oauthError(400, 'unsupported_grant_type', DESCRIPTIONS.unsupported_grant_type);
  const refreshToken = lastParam(form, 'refresh_token');
  if (refreshToken === undefined || refreshToken === '') return oauthError(400, 'invalid_request', DESCRIPTIONS.invalid_request('refresh_token'));
  if (!tokens.isRefreshTokenValid(refreshToken)) return oauthError(400, 'invalid_grant', DESCRIPTIONS.invalid_grant);
  return jsonResponse(200, {
    access_token: tokens.issueAccessToken(ACCESS_TOKEN_TTL_SECONDS),
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: tokens.refreshToken,
    data: { id: Number(me.gid), gid: me.gid, name: me.name, email: me.email },
  });
}
