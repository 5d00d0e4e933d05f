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

/** LwA's OAuth2 answers (A.2), in its order of checks. */
const REJECTIONS: Partial<Record<TokenCheck, TokenRejection>> = {
  grant_type_missing: missing('grant_type'),
  // The fake issues no authorization codes.
  grant_type_authorization_code: oauthError(400, 'invalid_grant', 'The request has an invalid grant parameter : code'),
  grant_type_unsupported: oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server'),
  refresh_token_missing: missing('refresh_token'),
  client_id_missing: missing('client_id'),
  client_secret_missing: missing('client_secret'),
  client: oauthError(401, 'invalid_client', 'Client authentication failed'),
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
    clientId: lastParam(form, 'client_id') ?? basic?.id,
    clientSecret: lastParam(form, 'client_secret') ?? basic?.secret,
    basic: basic !== undefined,
  };
}

/**
 * Answers a refresh-token grant with `{access_token: "Atza|...", refresh_token: <the same
 * Atzr|...>, token_type: "bearer", expires_in: 3600}`.
 * Errors (OAuth2 codes, A.2): a missing parameter -> 400 `invalid_request` "The request is missing
 * a required parameter : <name>"; another grant type -> 400 `unsupported_grant_type` (an
 * authorization code -> 400 `invalid_grant`, the fake issues none); unknown client or wrong secret
 * -> 401 `invalid_client`; unknown or revoked refresh token -> 400 `invalid_grant` "The request
 * has an invalid grant parameter : refresh_token".
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
