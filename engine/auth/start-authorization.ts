/**
 * The first half of the OAuth authorization-code flow: the URL that sends the user's browser to
 * the upstream's consent page, with its state and (where the upstream supports it) PKCE.
 */
import { InvalidRequestError } from '../errors.js';
import type { LoadedManifest } from '../manifest/index.js';
import { cachedTemplate } from './template-cache.js';
import {
  authorizingScheme,
  baseOrigin,
  checkedConfig,
  checkedCredentials,
  checkedText,
  checkedUrl,
  createState,
  requireCredentialFields,
} from './authorization-scheme.js';
import { credentialNames } from './credential-names.js';
import { codeChallenge, createCodeVerifier } from './pkce.js';

/** Options of {@link startAuthorization}. */
export interface StartAuthorizationOptions {
  /** The OAuth app: the fields the authorize URL names (client_id). Secrets are never put in the URL. */
  credentials: Record<string, unknown>;
  /** Where the upstream sends the browser back; it must be registered with the app, exactly. */
  redirectUri: string;
  /** The state to send back (e.g. one signed for a connect session); default: 256 fresh random bits. */
  state?: string;
  /** Scopes to ask for; default the manifest's `authorization.scopes`. */
  scopes?: string[];
  /** Connector config (for a URL that depends on it). */
  config?: Record<string, unknown>;
  /** Replaces the authorize URL's origin, as `connect`'s baseUrl does for the API (the sandbox). */
  baseUrl?: string;
  /** The auth scheme to authorize (default: the first with an authorization flow). */
  scheme?: string;
}

/** What the caller keeps until the browser comes back: all of it goes to {@link finishAuthorization}. */
export interface AuthorizationStart {
  /** The upstream's authorize URL; open it in the user's browser. */
  url: string;
  /** The state the callback must carry. */
  state: string;
  redirectUri: string;
  /** The PKCE verifier (secret: keep it server-side), when the upstream takes PKCE. */
  codeVerifier?: string;
  /** The auth scheme the credentials will be for. */
  scheme: string;
}

function checkedScopes(scopes: unknown, fallback: readonly string[]): string[] {
  if (scopes === undefined) return [...fallback];
  if (Array.isArray(scopes) && scopes.every((s) => typeof s === 'string' && s !== '' && !/\s/.test(s))) return scopes as string[];
  throw new InvalidRequestError('scopes must be a list of scope names without spaces', {
    details: [{ path: '/scopes', message: 'must be an array of non-empty strings without spaces' }],
  });
}

/**
 * Builds the authorize URL of a connector type from its manifest: the query the manifest spells
 * out over the app's client id, the redirect URI, the state, the scopes joined the upstream's way
 * and, with PKCE, the challenge of a fresh verifier.
 * Why: the Connect page (and any integrator's own page) sends users there; the caller keeps the
 * returned state and verifier to finish the flow.
 */
export function startAuthorization(type: string | LoadedManifest, options: StartAuthorizationOptions): AuthorizationStart {
  const { manifest, scheme, authorization } = authorizingScheme(type, options.scheme);
  const credentials = checkedCredentials(options.credentials);
  const redirectUri = checkedUrl(options.redirectUri, '/redirectUri');
  const state = options.state === undefined ? createState() : checkedText(options.state, '/state');
  const scopes = checkedScopes(options.scopes, authorization.scopes ?? []);
  requireCredentialFields(credentials, credentialNames(Object.values(authorization.query)), `${manifest.name} authorization`);
  const codeVerifier = authorization.pkce ? createCodeVerifier() : undefined;
  const params: Record<string, string> = { redirect_uri: redirectUri, state, scope: scopes.join(authorization.scope_separator ?? ' ') };
  if (authorization.pkce && codeVerifier) {
    params.code_challenge = codeChallenge(codeVerifier, authorization.pkce.method);
    params.code_challenge_method = authorization.pkce.method;
  }
  const context = { credentials, config: checkedConfig(manifest, options.config), params };
  const url = new URL(cachedTemplate(authorization.url).render(context));
  const origin = baseOrigin(options.baseUrl);
  const target = origin ? new URL(url.pathname + url.search, origin) : url;
  for (const [name, template] of Object.entries(authorization.query)) {
    const value = cachedTemplate(template).render(context);
    if (value !== '') target.searchParams.set(name, value);
  }
  return { url: target.toString(), state, redirectUri, scheme: scheme.name, ...(codeVerifier ? { codeVerifier } : {}) };
}
