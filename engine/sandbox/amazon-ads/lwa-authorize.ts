/**
 * `GET|POST https://www.amazon.com/ap/oa`: the Login with Amazon consent step (API-NOTES A.2;
 * developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html), served by the same
 * fake as the API (the engine replaces the authorize URL's origin with the base URL).
 */
import type { FakeServer } from '../fake-server.js';
import { authorizeEndpoint, type OAuthGrant } from '../oauth/index.js';

/** The authorize path. */
export const AUTHORIZE_PATH = '/ap/oa';

/**
 * Registers the consent page and the decision: `client_id`, `scope` (required), `response_type=code`,
 * `redirect_uri`, `state`, and PKCE `code_challenge` with `code_challenge_method` S256 or plain
 * (default plain); the success redirect carries `code`, `scope` and `state` (LwA "Authorization
 * Code Grant"). The page texts are the fake's [unverified].
 * Why: the engine's authorization flow is tested against it, end to end.
 */
export function routeLwaAuthorize(server: FakeServer, grant: OAuthGrant): void {
  const endpoint = authorizeEndpoint(grant, {
    upstream: 'Amazon',
    path: AUTHORIZE_PATH,
    requireResponseType: true,
    requireScope: true,
    pkceMethods: ['S256', 'plain'],
    echoScope: true,
    unregisteredRedirect: (uri) => `An unknown redirect_uri was given: ${uri || '(none)'}. It must be one of the Allowed Return URLs of the security profile.`,
  });
  server.route('GET', AUTHORIZE_PATH, endpoint.show, 'consent');
  server.route('POST', AUTHORIZE_PATH, endpoint.decide, 'consent');
}
