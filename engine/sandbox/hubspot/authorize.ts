/**
 * `GET|POST https://app.hubspot.com/oauth/authorize` (API-NOTES A2 [spec] `authorizationUrl`):
 * HubSpot's consent step, served by the fake at its own origin (the engine replaces the authorize
 * URL's origin with the base URL, as it does the token URL's).
 */
import type { FakeServer } from '../fake-server.js';
import { authorizeEndpoint, type OAuthGrant } from '../oauth/index.js';

/** The authorize path. */
export const AUTHORIZE_PATH = '/oauth/authorize';

/**
 * Registers the consent page and the decision: parameters `client_id`, `scope` (space-separated,
 * required), `redirect_uri`, `state` (HubSpot docs, "oauth quickstart guide"); no `response_type`
 * and no PKCE in HubSpot's legacy-app flow. A redirect URI the app did not register gets HubSpot's
 * page text ([3p] HubSpot/oauth-quickstart-python #3, n8n-io/n8n #23581).
 * Why: the engine's authorization flow is tested against it, end to end.
 */
export function routeAuthorize(server: FakeServer, grant: OAuthGrant): void {
  const endpoint = authorizeEndpoint(grant, {
    upstream: 'HubSpot',
    path: AUTHORIZE_PATH,
    requireResponseType: false,
    requireScope: true,
    pkceMethods: [],
    unregisteredRedirect: (uri) => `Authorization failed as the redirect URL '${uri}' doesn't match the app's registered redirect URL`,
  });
  server.route('GET', AUTHORIZE_PATH, endpoint.show, 'consent');
  server.route('POST', AUTHORIZE_PATH, endpoint.decide, 'consent');
}
