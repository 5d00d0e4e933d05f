/**
 * Credentials the HubSpot fake issued: one private-app token and one OAuth app's grant (client
 * id, secret, a refresh token and the access tokens refreshes hand out) (API-NOTES A2).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { OAuthGrant } from '../oauth/index.js';
import { createPrng } from '../prng.js';

/** A2 [doc]: access tokens live 30 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

/** Lifetime of an authorization code: HubSpot documents none; RFC 6749 §4.1.2 recommends at most 10 minutes [unverified]. */
export const CODE_TTL_SECONDS = 600;

/** Scopes the fake OAuth app may ask for, and that a refresh reports. */
const GRANTED_SCOPES = [
  'oauth',
  'crm.objects.contacts.read',
  'crm.objects.companies.read',
  'crm.objects.deals.read',
  'tickets',
  'crm.objects.custom.read',
  'crm.schemas.custom.read',
];

/** The auth scheme a bearer token belongs to. */
export type TokenScheme = 'private_app' | 'oauth';

/** What a presented token is. */
export type TokenStatus = { state: 'valid'; scheme: TokenScheme } | { state: 'expired'; expiredAtMs: number } | { state: 'unknown' };

/** The fake's credential state; token values are derived from the sandbox seed. */
export interface HubspotCredentials {
  /** Looks like a real private-app token (`pat-na1-<uuid>`). */
  privateAppToken: string;
  /** The OAuth app; its refresh token never rotates: refreshing answers the same value (A2 [3p]). */
  grant: OAuthGrant;
}

/**
 * Derives the credentials from the seed; access tokens expire on `now`.
 * Why: the same seed must print the same credentials, and tests expire tokens with the fake's clock.
 */
export function hubspotCredentials(seed: number, now: () => number): HubspotCredentials {
  const rng = createPrng(seed ^ 0x5eed7043);
  const privateAppToken = `pat-na1-${rng.uuid()}`;
  const grant = new OAuthGrant({
    clientId: rng.uuid(),
    clientSecret: rng.uuid(),
    refreshToken: `na1-${rng.uuid()}`,
    mintRefreshToken: () => `na1-${randomUUID()}`,
    codeTtlSeconds: CODE_TTL_SECONDS,
    mintAccessToken: () => `CN${randomBytes(72).toString('base64url')}`,
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    scopes: GRANTED_SCOPES,
    now,
  });
  return { privateAppToken, grant };
}

/**
 * Classifies a presented bearer token.
 * Why: unknown tokens get INVALID_AUTHENTICATION, expired ones EXPIRED_AUTHENTICATION (A6), and
 * the rate limits depend on the scheme.
 */
export function checkToken(credentials: HubspotCredentials, token: string): TokenStatus {
  if (token === credentials.privateAppToken) return { state: 'valid', scheme: 'private_app' };
  const status = credentials.grant.accessTokens.check(token);
  if (status.state === 'valid') return { state: 'valid', scheme: 'oauth' };
  return status.state === 'expired' ? status : { state: 'unknown' };
}
