/**
 * `GET|POST https://app.asana.com/-/oauth_authorize` (API-NOTES B1 [spec] `authorizationUrl`), at
 * the server root like the token endpoint.
 */
import type { FakeServer } from '../fake-server.js';
import { authorizeEndpoint, type OAuthGrant } from '../oauth/index.js';

/** The authorize path. */
export const AUTHORIZE_PATH = '/-/oauth_authorize';

/**
 * Registers the consent page and the decision: `client_id`, `redirect_uri`, `response_type=code`
 * (required), `state`, `scope` (space-separated, optional: the app's default access) and PKCE
 * with `code_challenge_method=S256` only (developers.asana.com/docs/oauth, "OAuth"; [3p]
 * errorhandle.ai walk-through). The page texts are the fake's [unverified].
 * Why: the engine's authorization flow is tested against it, end to end.
 */
export function routeAuthorize(server: FakeServer, grant: OAuthGrant): void {
  const endpoint = authorizeEndpoint(grant, {
    upstream: 'Asana',
    path: AUTHORIZE_PATH,
    requireResponseType: true,
    requireScope: false,
    pkceMethods: ['S256'],
    unregisteredRedirect: (uri) => `The redirect_uri ${uri || '(none)'} does not match any redirect URL registered for this app.`,
  });
  server.route('GET', AUTHORIZE_PATH, endpoint.show, 'consent');
  server.route('POST', AUTHORIZE_PATH, endpoint.decide, 'consent');
}
