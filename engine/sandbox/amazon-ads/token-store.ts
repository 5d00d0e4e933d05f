/**
 * Credentials of the Amazon Ads fake: one Login with Amazon (LwA) application (client id and
 * secret), the advertiser's refresh token, and the access tokens handed out (API-NOTES A.2).
 */
import { randomBytes } from 'node:crypto';
import { createPrng } from '../prng.js';

/** A.2: "access tokens are valid for 60 minutes". */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** What a presented bearer token is. */
export type AccessTokenStatus = { state: 'valid' } | { state: 'expired' } | { state: 'unknown' };

/** The fake's credential state; the LwA app and the refresh token come from the sandbox seed. */
export class TokenStore {
  /** A.2: `amzn1.application-oa2-client.<32 hex>`. */
  readonly clientId: string;
  /** Shaped like LwA client secrets (`amzn1.oa2-cs.v1.<64 hex>`). */
  readonly clientSecret: string;
  /** A.2: `Atzr|...`; "Refresh tokens do not expire" and refreshing returns the same one. */
  readonly refreshToken: string;
  private refreshTokenRevoked = false;
  private readonly accessTokens = new Map<string, number>();

  constructor(
    seed: number,
    private readonly now: () => number = Date.now,
  ) {
    const rng = createPrng(seed ^ 0x1a3a7d5);
    this.clientId = `amzn1.application-oa2-client.${rng.hex(32)}`;
    this.clientSecret = `amzn1.oa2-cs.v1.${rng.hex(64)}`;
    const bytes = Buffer.from(Array.from({ length: 96 }, () => rng.int(0, 255)));
    this.refreshToken = `Atzr|IwEB${bytes.toString('base64url')}`;
  }

  /**
   * Issues an access token (`Atza|...`) valid for `ttlSeconds`.
   * Why: the token endpoint and tests (short-lived tokens) need tokens the fake will accept.
   */
  issueAccessToken(ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const token = `Atza|IwEB${randomBytes(120).toString('base64url')}`;
    this.accessTokens.set(token, this.now() + ttlSeconds * 1000);
    return token;
  }

  /** Classifies a presented bearer token. Why: only issued, unexpired tokens pass (DESIGN.md §8). */
  check(token: string): AccessTokenStatus {
    const expiresAt = this.accessTokens.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    return expiresAt <= this.now() ? { state: 'expired' } : { state: 'valid' };
  }

  /** Makes every issued access token expired now. Why: tests force the refresh path. */
  expireAllAccessTokens(): void {
    const past = this.now() - 1;
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, past);
  }

  /**
   * Revokes the refresh token (the advertiser withdrew consent); later refreshes get
   * `invalid_grant`. Access tokens already issued stay valid until they expire.
   * Why: tests exercise re-authorisation after a revoked grant.
   */
  revokeRefreshToken(): void {
    this.refreshTokenRevoked = true;
  }

  /** True when `token` is the current, unrevoked refresh token. */
  isRefreshTokenValid(token: string): boolean {
    return !this.refreshTokenRevoked && token === this.refreshToken;
  }
}
