/**
 * Admin API access tokens the Shopify fake accepts (API-NOTES B.2): one static custom-app token
 * derived from the seed, plus tokens tests issue with a lifetime.
 */
import { randomBytes } from 'node:crypto';
import { AccessTokenLedger } from '../oauth/index.js';
import { createPrng } from '../prng.js';

/** B.2: tokens from the client-credentials grant are "valid 24 h"; the default lifetime of issued tokens. */
export const ISSUED_TOKEN_TTL_SECONDS = 86_400;

/** The fake store's credential state. */
export interface ShopifyCredentials {
  /** B.2: an admin-created custom app's static `shpat_…` token (32 hex digits), stable per seed; it never expires. */
  accessToken: string;
  /**
   * Every accepted token: the static one, and fresh `shpat_` tokens issued with a lifetime (B.2:
   * apps on a store also get expiring tokens: client-credentials grant, expiring offline tokens).
   * Revoking one (the static one too) is what uninstalling the app does.
   */
  tokens: AccessTokenLedger;
}

/**
 * Derives the static token from the seed; issued tokens expire on `now` (the fake's clock).
 * Why: tests use short-lived and revoked tokens to exercise what a client does when a token stops working.
 */
export function shopifyCredentials(seed: number, now: () => number): ShopifyCredentials {
  const accessToken = `shpat_${createPrng(seed ^ 0x5407e7).hex(32)}`;
  const tokens = new AccessTokenLedger({
    mint: () => `shpat_${randomBytes(16).toString('hex')}`,
    ttlSeconds: ISSUED_TOKEN_TTL_SECONDS,
    now,
    permanent: [accessToken],
  });
  return { accessToken, tokens };
}
