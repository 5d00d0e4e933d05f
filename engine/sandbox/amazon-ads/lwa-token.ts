/**
 * `POST /auth/o2/token`: the Login with Amazon token endpoint (API-NOTES A.2), served by the same
 * fake as the API (the engine sends token requests to the base URL's origin).
 */
import type { FakeRequest } from '../fake-server.js';
import { basicCredentials, formFields, tokenEndpoint, type OAuthGrant, type TokenCheck, type TokenRejection, type TokenRequest } from '../oauth/index.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { lwaError } from './errors.js';

function oauthError(status: number, error: string, description: string): TokenRejection {
  return () => lwaError(status, error, description);
}

function missing(name: string): TokenRejection {
  return oauthError(400, 'invalid_request', `The request is missing a required parameter : ${name}`);
}

/**
 * LwA's OAuth2 answers (A.2), in its order of checks. A bad code is A.2's example "The request has
 * an invalid parameter : code"; the redirect URI and verifier wordings follow it [unverified].
 */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  grant_type_missing: missing('grant_type'),
  code_missing: missing('code'),
  redirect_uri_missing: missing('redirect_uri'),
  grant_type_unsupported: oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server'),
  refresh_token_missing: missing('refresh_token'),
  client_id_missing: missing('client_id'),
  client_secret_missing: missing('client_secret'),
  client: oauthError(401, 'invalid_client', 'Client authentication failed'),
  code: oauthError(400, 'invalid_grant', 'The request has an invalid parameter : code'),
  redirect_uri: oauthError(400, 'invalid_grant', 'The request has an invalid parameter : redirect_uri'),
  pkce: oauthError(400, 'invalid_grant', 'The request has an invalid parameter : code_verifier'),
  refresh_token: oauthError(400, 'invalid_grant', 'The request has an invalid grant parameter : refresh_token'),
};

/**
 * Form-encoded `grant_type=refresh_token&refresh_token&client_id&client_secret`; the client may
 * also authenticate with HTTP Basic, as OAuth2 allows (form fields win).
 */
function readRequest(req: FakeRequest): TokenRequest {
  const form = formFields(req);
  const basic = basicCredentials(req, { decode: formDecode, withoutColon: 'none' });
  return {
    grantType: lastParam(form, 'grant_type'),
    refreshToken: lastParam(form, 'refresh_token'),
    code: lastParam(form, 'code'),
    redirectUri: lastParam(form, 'redirect_uri'),
    codeVerifier: lastParam(form, 'code_verifier'),
    clientId: lastParam(form, 'client_id') ?? basic?.id,
    clientSecret: lastParam(form, 'client_secret') ?? basic?.secret,
    basic: basic !== undefined,
  };
}

/**
 * Answers an authorization-code grant (form `grant_type=authorization_code&code&redirect_uri&
 * client_id&client_secret[&code_verifier]`, A.2) with a new refresh token, and a refresh-token
 * grant with `{access_token: "Atza|...", refresh_token: <the same
 * Atzr|...>, token_type: "bearer", expires_in: 3600}`.
 * Errors (OAuth2 codes, A.2): a missing parameter -> 400 `invalid_request` "The request is missing
 * a required parameter : <name>"; another grant type -> 400 `unsupported_grant_type`; unknown
 * client or wrong secret -> 401 `invalid_client`; an unknown, expired (5 minutes) or reused code,
 * another redirect URI or a wrong PKCE verifier -> 400 `invalid_grant`; unknown or revoked refresh
 * token -> 400 `invalid_grant` "The request has an invalid grant parameter : refresh_token".
 */
export function lwaToken(grant: OAuthGrant): (req: FakeRequest) => FakeResponse {
  return tokenEndpoint(grant, {
    read: readRequest,
    rejections: REJECTIONS,
    issued: (_req, tokens) =>
      jsonResponse(
        200,
        { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, token_type: 'bearer', expires_in: tokens.expiresIn },
        { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' },
      ),
  });
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded; a malformed escape is taken literally. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
