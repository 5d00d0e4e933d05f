/**
 * `POST /-/oauth_token` at the server root, not under `/api/1.0` (API-NOTES B1).
 */
import type { FakeRequest } from '../fake-server.js';
import { basicCredentials, formFields, tokenEndpoint, type OAuthGrant, type TokenCheck, type TokenRejection, type TokenRequest } from '../oauth/index.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { AsanaUser } from './model.js';

/** RFC 6749 §5.2 descriptions; Asana's own wording is [unverified]. */
const DESCRIPTIONS = {
  invalid_request: (name: string) => `The request is missing a required parameter: ${name}.`,
  invalid_client: 'Client authentication failed (unknown client_id or wrong client_secret).',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_grant:
    'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
};

function oauthError(error: string, description: string): TokenRejection {
  return () => jsonResponse(400, { error, error_description: description });
}

/** `invalid_client`: 401 with `WWW-Authenticate` when HTTP Basic was used, 400 otherwise. */
const invalidClient: TokenRejection = (_req, request) =>
  request.basic
    ? jsonResponse(401, { error: 'invalid_client', error_description: DESCRIPTIONS.invalid_client }, { 'WWW-Authenticate': 'Basic realm="Asana"' })
    : jsonResponse(400, { error: 'invalid_client', error_description: DESCRIPTIONS.invalid_client });

const invalidGrant = oauthError('invalid_grant', DESCRIPTIONS.invalid_grant);

/**
 * RFC 6749 §5.2 answers (Asana's exact descriptions are [unverified]), in Asana's order of checks:
 * an unknown, expired or reused code, another redirect URI and a PKCE verifier that is missing or
 * does not match are all `invalid_grant` (RFC 6749 §5.2, RFC 7636 §4.6).
 */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  client: invalidClient,
  grant_type_missing: oauthError('invalid_request', DESCRIPTIONS.invalid_request('grant_type')),
  grant_type_unsupported: oauthError('unsupported_grant_type', DESCRIPTIONS.unsupported_grant_type),
  code_missing: oauthError('invalid_request', DESCRIPTIONS.invalid_request('code')),
  redirect_uri_missing: oauthError('invalid_request', DESCRIPTIONS.invalid_request('redirect_uri')),
  code: invalidGrant,
  redirect_uri: invalidGrant,
  pkce: invalidGrant,
  refresh_token_missing: oauthError('invalid_request', DESCRIPTIONS.invalid_request('refresh_token')),
  refresh_token: invalidGrant,
};

/** The body is form-encoded (B1 [3p]); the client authenticates with HTTP Basic or with form fields. */
function readRequest(req: FakeRequest): TokenRequest {
  const form = formFields(req);
  const basic = basicCredentials(req, { decode: decodeURIComponent, withoutColon: 'id-only' });
  return {
    grantType: lastParam(form, 'grant_type'),
    refreshToken: lastParam(form, 'refresh_token'),
    code: lastParam(form, 'code'),
    redirectUri: lastParam(form, 'redirect_uri'),
    codeVerifier: lastParam(form, 'code_verifier'),
    clientId: basic?.id ?? lastParam(form, 'client_id'),
    clientSecret: basic?.secret ?? lastParam(form, 'client_secret'),
    basic: basic !== undefined,
  };
}

/**
 * Exchanges an authorization code (form `grant_type=authorization_code&client_id&client_secret&
 * redirect_uri&code[&code_verifier]`, B1) or a refresh token for an access token. Answers `{access_token, token_type: "bearer",
 * expires_in: 3600, refresh_token (the same one: Asana does not rotate it, B1 [3p] observed),
 * data: {id, gid, name, email}}` (the token owner, B1 [3p docs copy]). Errors, checked in order:
 * unknown client or wrong secret -> `invalid_client`; no `grant_type` -> 400 `invalid_request`; a
 * grant type other than `refresh_token`/`authorization_code` -> 400 `unsupported_grant_type`; no
 * `code` or `redirect_uri` (code grant) or `refresh_token` (refresh) -> 400 `invalid_request`; a
 * bad code, redirect URI or PKCE verifier, or an unknown or revoked refresh token -> 400
 * `invalid_grant`.
 * Why: the engine's OAuth refresh is tested against exactly these answers.
 */
export function oauthToken(grant: OAuthGrant, me: AsanaUser): (req: FakeRequest) => FakeResponse {
  return tokenEndpoint(grant, {
    read: readRequest,
    rejections: REJECTIONS,
    issued: (_req, tokens) =>
      jsonResponse(200, {
        access_token: tokens.accessToken,
        token_type: 'bearer',
        expires_in: tokens.expiresIn,
        refresh_token: tokens.refreshToken,
        data: { id: Number(me.gid), gid: me.gid, name: me.name, email: me.email },
      }),
  });
}
