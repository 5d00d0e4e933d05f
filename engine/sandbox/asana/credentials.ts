/**
 * Credentials the Asana fake issued: one personal access token and one OAuth app's grant (client
 * id, secret, a refresh token and the access tokens refreshes hand out) (API-NOTES B1). Every
 * token acts as the seeded user `me`.
 */
import { randomBytes } from 'node:crypto';
import { OAuthGrant } from '../oauth/index.js';
import { createPrng } from '../prng.js';

/** B1 [3p]: access tokens live 3600 s ("typically 3600 (one hour)"). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** Lifetime of an authorization code: Asana documents none; RFC 6749 §4.1.2 recommends at most 10 minutes [unverified]. */
export const CODE_TTL_SECONDS = 600;

/** Scopes the OAuth app may ask for (B1 [spec]: `default`, the granular read scopes, OpenID Connect). */
const APP_SCOPES = [
  'default',
  'attachments:read',
  'custom_fields:read',
  'projects:read',
  'stories:read',
  'tags:read',
  'tasks:read',
  'teams:read',
  'users:read',
  'workspaces:read',
  'openid',
  'email',
  'profile',
];

/** The auth scheme a bearer token belongs to (the manifest's scheme names). */
export type TokenScheme = 'personal_access_token' | 'oauth';

/** What a presented token is. */
export type TokenStatus = { state: 'valid'; scheme: TokenScheme } | { state: 'expired' } | { state: 'unknown' };

/** The fake's credential state; the PAT and the OAuth app are derived from the sandbox seed. */
export interface AsanaCredentials {
  /** Shaped like a current Asana PAT: `2/<user gid>/<app gid>:<32 hex>`. */
  personalAccessToken: string;
  /** The OAuth app (numeric client id, like Asana's); B1 [3p]: refreshing does not rotate the refresh token. */
  grant: OAuthGrant;
}

/**
 * Derives the credentials from the seed; access tokens expire on `now` (the fake's clock).
 * Why: the same seed must print the same credentials, and tests expire tokens with the fake's clock.
 */
export function asanaCredentials(seed: number, meGid: string, now: () => number): AsanaCredentials {
  const rng = createPrng(seed ^ 0x7a5a7a);
  const appGid = String(1_209_000_000_000_000 + rng.int(0, 999_999_999));
  const personalAccessToken = `2/${meGid}/${appGid}:${rng.hex(32)}`;
  const clientId = String(1_208_000_000_000_000 + rng.int(0, 999_999_999));
  const grant = new OAuthGrant({
    clientId,
    clientSecret: rng.hex(32),
    refreshToken: `2/${meGid}/${clientId}:${rng.hex(32)}`,
    mintRefreshToken: () => `2/${meGid}/${clientId}:${randomBytes(16).toString('hex')}`,
    scopes: APP_SCOPES,
    codeTtlSeconds: CODE_TTL_SECONDS,
    mintAccessToken: () => `2/${randomBytes(24).toString('base64url')}:${randomBytes(16).toString('hex')}`,
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    now,
  });
  return { personalAccessToken, grant };
}

/** Classifies a presented bearer token. Why: only tokens the fake issued, unexpired, pass (B6 401). */
export function checkToken(credentials: AsanaCredentials, token: string): TokenStatus {
  if (token === credentials.personalAccessToken) return { state: 'valid', scheme: 'personal_access_token' };
  const status = credentials.grant.accessTokens.check(token);
  if (status.state === 'valid') return { state: 'valid', scheme: 'oauth' };
  return status.state === 'expired' ? { state: 'expired' } : { state: 'unknown' };
}
