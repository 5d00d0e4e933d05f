/**
 * Admin API access tokens the Shopify fake accepts (API-NOTES B.2): one static custom-app token
 * derived from the seed, plus tokens tests issue with a lifetime.
 */
import { randomBytes } from 'node:crypto';
import { createPrng } from '../prng.js';

/**
 * B.2: tokens from the client-credentials grant are "valid 24 h"; the default lifetime of
 * {@link TokenStore.issueAccessToken}.
 */
export const ISSUED_TOKEN_TTL_SECONDS = 86_400;

/** What a presented token is. */
export type TokenStatus = { state: 'valid' } | { state: 'expired' } | { state: 'revoked' } | { state: 'unknown' };

/** The fake store's credential state. */
export class TokenStore {
  /** B.2: an admin-created custom app's static `shpat_…` token (32 hex digits), stable per seed. */
  readonly accessToken: string;
  /** Issued tokens and when they expire (epoch ms). */
  private readonly issued = new Map<string, number>();
  private readonly revoked = new Set<string>();

  constructor(
    seed: number,
    private readonly now: () => number,
  ) {
    this.accessToken = `shpat_${createPrng(seed ^ 0x5407e7).hex(32)}`;
  }

  /**
   * Issues a fresh `shpat_` token valid for `ttlSeconds` (default 24 h).
   * Why: B.2: apps on a store also get expiring tokens (client-credentials grant, expiring offline
   * tokens); tests use short-lived ones to exercise what a client does when a token stops working.
   */
  issueAccessToken(ttlSeconds: number = ISSUED_TOKEN_TTL_SECONDS): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    this.issued.set(token, this.now() + ttlSeconds * 1000);
    return token;
  }

  /** Makes every issued token expired now; the static token is unaffected. Why: tests force the 401 path. */
  expireAllAccessTokens(): void {
    const past = this.now() - 1;
    for (const token of this.issued.keys()) this.issued.set(token, past);
  }

  /**
   * Revokes a token (the static one too), as uninstalling the app does; true when it was known.
   * Why: a revoked token must get the same 401 as an unknown one, and clients must surface it.
   */
  revokeAccessToken(token: string): boolean {
    const known = token === this.accessToken || this.issued.has(token);
    if (known) this.revoked.add(token);
    return known;
  }

  /** Classifies a presented token. Why: the 401 decision, and the rate-limit bucket of valid ones. */
  check(token: string): TokenStatus {
    if (this.revoked.has(token)) return { state: 'revoked' };
    if (token === this.accessToken) return { state: 'valid' };
    const expiresAt = this.issued.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    return expiresAt <= this.now() ? { state: 'expired' } : { state: 'valid' };
  }
}
