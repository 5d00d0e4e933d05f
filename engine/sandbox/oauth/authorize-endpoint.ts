/**
 * A fake's authorize endpoint (RFC 6749 §4.1.1): GET shows the consent page, POST takes the
 * user's decision and redirects to the app with a code (Approve) or `error=access_denied` (Deny),
 * always with the state. What differs per upstream is data: the path, the parameters it requires,
 * PKCE support, and its wording.
 */
import type { FakeHandler, FakeRequest } from '../fake-server.js';
import { lastParam, type ParamMap } from '../param-map.js';
import type { FakeResponse } from '../responses.js';
import type { PkceChallenge } from './authorization-codes.js';
import { authorizeErrorPage, consentPage } from './consent-page.js';
import type { OAuthGrant } from './grant.js';
import { formFields } from './token-request.js';

/** How one upstream's authorize endpoint behaves. */
export interface AuthorizeSpec {
  /** Shown on the pages (e.g. HubSpot). */
  upstream: string;
  /** The endpoint's path; the form posts back to it. */
  path: string;
  /** True when `response_type=code` must be sent (HubSpot's legacy flow does not need it). */
  requireResponseType: boolean;
  /** True when at least one scope must be asked for. */
  requireScope: boolean;
  /** PKCE methods taken (empty: the upstream does not support PKCE and ignores the parameters). */
  pkceMethods: ReadonlyArray<PkceChallenge['method']>;
  /** The page text for a redirect URI that is not registered with the app. */
  unregisteredRedirect: (uri: string) => string;
  /** True when the success redirect also names the granted scope (Login with Amazon). */
  echoScope?: boolean;
}

/** An authorize request, as sent on GET or carried through the consent form. */
interface AuthorizeRequest {
  params: ParamMap;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
}

/** The parameters of the request: the query on GET, the form fields on POST. */
function paramsOf(req: FakeRequest): ParamMap {
  return req.method === 'POST' ? formFields(req) : req.query;
}

/** A redirect to the app with the given parameters added to its redirect URI. */
function redirectTo(uri: string, params: Record<string, string | undefined>): FakeResponse {
  const target = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) target.searchParams.set(name, value);
  return { status: 302, headers: { location: target.toString(), 'cache-control': 'no-store' }, body: '' };
}

/**
 * Checks an authorize request: a bad client or redirect URI gets an error page (never a
 * redirect, RFC 6749 §4.1.2.1); anything else wrong is redirected back as an OAuth error.
 */
function checkRequest(grant: OAuthGrant, spec: AuthorizeSpec, params: ParamMap): AuthorizeRequest | FakeResponse {
  const clientId = lastParam(params, 'client_id');
  if (!clientId || clientId !== grant.clientId) return authorizeErrorPage(400, spec.upstream, `Unknown client_id: ${clientId ?? '(none)'}`);
  const redirectUri = lastParam(params, 'redirect_uri') ?? '';
  if (!grant.redirectUris.has(redirectUri)) return authorizeErrorPage(400, spec.upstream, spec.unregisteredRedirect(redirectUri));
  const state = lastParam(params, 'state');
  const oauthError = (error: string, description: string) => redirectTo(redirectUri, { error, error_description: description, state });
  const responseType = lastParam(params, 'response_type');
  if (spec.requireResponseType && responseType !== 'code')
    return responseType
      ? oauthError('unsupported_response_type', `response_type ${responseType} is not supported`)
      : oauthError('invalid_request', 'response_type is required');
  const scopes = (lastParam(params, 'scope') ?? '').split(/[\s+]+/).filter((scope) => scope !== '');
  if (spec.requireScope && scopes.length === 0) return oauthError('invalid_scope', 'scope is required');
  const unknown = scopes.filter((scope) => !grant.scopes.includes(scope));
  if (grant.scopes.length > 0 && unknown.length > 0) return oauthError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
  const method = lastParam(params, 'code_challenge_method') ?? 'plain';
  if (spec.pkceMethods.length > 0 && lastParam(params, 'code_challenge') && !spec.pkceMethods.includes(method as PkceChallenge['method']))
    return oauthError('invalid_request', `code_challenge_method ${method} is not supported`);
  return { params, redirectUri, state, scopes };
}

/** The PKCE challenge of a request, when the upstream takes PKCE and one was sent (RFC 7636 §4.3: method default plain). */
function challengeOf(spec: AuthorizeSpec, params: ParamMap): PkceChallenge | undefined {
  const value = lastParam(params, 'code_challenge');
  if (spec.pkceMethods.length === 0 || !value) return undefined;
  return { value, method: (lastParam(params, 'code_challenge_method') ?? 'plain') as PkceChallenge['method'] };
}

/** The user's decision: a code, or access_denied, sent back to the app with the state. */
function decide(grant: OAuthGrant, spec: AuthorizeSpec, request: AuthorizeRequest): FakeResponse {
  const { params, redirectUri, state, scopes } = request;
  const decision = lastParam(params, 'decision');
  if (decision === 'deny') return redirectTo(redirectUri, { error: 'access_denied', error_description: 'The user denied the request', state });
  if (decision !== 'approve') return authorizeErrorPage(400, spec.upstream, 'Choose Approve or Deny.');
  const challenge = challengeOf(spec, params);
  const code = grant.issueCode({ clientId: grant.clientId, redirectUri, scopes, ...(challenge ? { challenge } : {}) });
  return redirectTo(redirectUri, { code, ...(spec.echoScope ? { scope: scopes.join(' ') } : {}), state });
}

/**
 * The GET (consent page) and POST (decision) handlers of an authorize endpoint.
 * Why: every OAuth fake serves its upstream's consent step over the shared grant model.
 */
export function authorizeEndpoint(grant: OAuthGrant, spec: AuthorizeSpec): { show: FakeHandler; decide: FakeHandler } {
  return {
    show: (req) => {
      const request = checkRequest(grant, spec, paramsOf(req));
      if ('status' in request) return request;
      const fields = Object.fromEntries(Object.keys(request.params).map((name) => [name, lastParam(request.params, name) ?? '']));
      return consentPage({ upstream: spec.upstream, action: spec.path, scopes: request.scopes, fields });
    },
    decide: (req) => {
      const request = checkRequest(grant, spec, paramsOf(req));
      return 'status' in request ? request : decide(grant, spec, request);
    },
  };
}
