/**
 * Credentials the HubSpot fake issued: one private-app token, one OAuth app (client id, secret,
 * a refresh token) and the OAuth access tokens it handed out (API-NOTES A2).
 */
import { randomBytes } from 'node:crypto';
import { createPrng } from '../prng.js';

/** A2 [doc]: access tokens live 30 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

/** The auth scheme a bearer token belongs to. */
export type TokenScheme = 'private_app' | 'oauth';

/** What a presented token is. */
export type TokenStatus =
  | { state: 'valid'; scheme: TokenScheme }
  | { state: 'expired'; expiredAtMs: number }
  | { state: 'unknown' };

/** The fake's credential state; token values are derived from the sandbox seed. */
export class TokenStore {
  /** Looks like a real private-app token (`pat-na1-<uuid>`). */
  readonly privateAppToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Never rotates: refreshing answers this same value (A2 [3p]). */
  readonly refreshToken: string;
  private refreshTokenRevoked = false;
  private readonly accessTokens = new Map<string, number>();

  constructor(
    seed: number,
    private readonly now: () => number = Date.now,
  ) {
    const rng = createPrng(seed ^ 0x5eed7043);
    this.privateAppToken = `pat-na1-${rng.uuid()}`;
    this.clientId = rng.uuid();
    this.clientSecret = rng.uuid();
    this.refreshToken = `na1-${rng.uuid()}`;
  }

  /**
   * Issues a fresh OAuth access token valid for `ttlSeconds`.
   * Why: the token endpoint and tests (short-lived tokens) both need tokens the fake will accept.
   */
  issueAccessToken(ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const token = `CN${randomBytes(72).toString('base64url')}`;
    this.accessTokens.set(token, this.now() + ttlSeconds * 1000);
    return token;
  }

  /**
   * Classifies a presented bearer token.
   * Why: unknown tokens get INVALID_AUTHENTICATION, expired ones EXPIRED_AUTHENTICATION (A6).
   */
  check(token: string): TokenStatus {
    if (token === this.privateAppToken) return { state: 'valid', scheme: 'private_app' };
    const expiresAt = this.accessTokens.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    if (expiresAt <= this.now()) return { state: 'expired', expiredAtMs: expiresAt };
    return { state: 'valid', scheme: 'oauth' };
  }

  /** Makes every issued OAuth access token expired now. Why: tests force the refresh path. */
  expireAllAccessTokens(): void {
    const past = this.now() - 1;
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, past);
  }

  /**
   * Revokes the refresh token; later refreshes get BAD_REFRESH_TOKEN. Access tokens already
   * issued stay valid until they expire.
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
