/**
 * Credentials of the Amazon Ads fake: one Login with Amazon (LwA) application's grant (client id
 * and secret, the advertiser's refresh token, the access tokens handed out) (API-NOTES A.2).
 */
import { randomBytes } from 'node:crypto';
import { OAuthGrant } from '../oauth/index.js';
import { createPrng } from '../prng.js';

/** A.2: "access tokens are valid for 60 minutes". */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** A.2: the authorization code "expires after 5 minutes and is single-use". */
export const CODE_TTL_SECONDS = 300;

/** Scopes the LwA app may ask for: Amazon Ads' `advertising::campaign_management` (older `cpc_advertising:campaign_management`; Amazon Ads authorization guide) and LwA's profile scopes. */
const APP_SCOPES = ['advertising::campaign_management', 'cpc_advertising:campaign_management', 'profile', 'profile:user_id', 'postal_code'];

/**
 * Derives the LwA app and the refresh token from the seed; access tokens expire on `now`.
 * Client id `amzn1.application-oa2-client.<32 hex>` (A.2), secret shaped like LwA's
 * (`amzn1.oa2-cs.v1.<64 hex>`), refresh token `Atzr|...`: A.2 "Refresh tokens do not expire" and
 * refreshing returns the same one. Access tokens are `Atza|...`.
 * Why: the same seed must print the same credentials.
 */
export function amazonAdsGrant(seed: number, now: () => number): OAuthGrant {
  const rng = createPrng(seed ^ 0x1a3a7d5);
  const clientId = `amzn1.application-oa2-client.${rng.hex(32)}`;
  const clientSecret = `amzn1.oa2-cs.v1.${rng.hex(64)}`;
  const bytes = Buffer.from(Array.from({ length: 96 }, () => rng.int(0, 255)));
  return new OAuthGrant({
    clientId,
    clientSecret,
    refreshToken: `Atzr|IwEB${bytes.toString('base64url')}`,
    mintRefreshToken: () => `Atzr|IwEB${randomBytes(96).toString('base64url')}`,
    mintCode: () => `AN${randomBytes(15).toString('base64url')}`,
    codeTtlSeconds: CODE_TTL_SECONDS,
    scopes: APP_SCOPES,
    mintAccessToken: () => `Atza|IwEB${randomBytes(120).toString('base64url')}`,
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    now,
  });
}
