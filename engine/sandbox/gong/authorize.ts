/**
 * `GET|POST https://app.gong.io/oauth2/authorize` (API-NOTES C.1, help.gong.io "Create an OAuth
 * app for Gong"), on the main host only: the customer API host has no consent page.
 */
import type { FakeHandler, FakeServer } from '../fake-server.js';
import { authorizeEndpoint, type OAuthGrant } from '../oauth/index.js';
import type { GongContext } from './context.js';
import { frameworkError } from './errors.js';

/** The authorize path. */
export const AUTHORIZE_PATH = '/oauth2/authorize';

/**
 * Registers the consent page and the decision: `client_id`, `response_type=code`, `scope`
 * (space-separated), `redirect_uri`, `state` (C.1); Gong documents no PKCE. The page texts are
 * the fake's [unverified].
 * Why: the engine's authorization flow is tested against it, end to end.
 */
export function routeAuthorize(server: FakeServer, ctx: GongContext, grant: OAuthGrant): void {
  const endpoint = authorizeEndpoint(grant, {
    upstream: 'Gong',
    path: AUTHORIZE_PATH,
    requireResponseType: true,
    requireScope: true,
    pkceMethods: [],
    unregisteredRedirect: (uri) => `The redirect URI ${uri || '(none)'} is not one of the integration's redirect URIs.`,
  });
  const mainOnly =
    (handler: FakeHandler): FakeHandler =>
    (req) =>
      ctx.hostOf(req) === 'customer' ? frameworkError(req, 404) : handler(req);
  server.route('GET', AUTHORIZE_PATH, mainOnly(endpoint.show), 'consent');
  server.route('POST', AUTHORIZE_PATH, mainOnly(endpoint.decide), 'consent');
}
