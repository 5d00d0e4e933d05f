/**
 * Credentials the Asana fake issued: one personal access token, one OAuth app (client id, secret,
 * a refresh token) and the OAuth access tokens it handed out (API-NOTES B1). Every token acts as
 * the seeded user `me`.
 */
import { randomBytes } from 'node:crypto';
import { createPrng } from '../prng.js';
import type { FakeClock } from '../fake-clock.js';

/** B1 [3p]: access tokens live 3600 s ("typically 3600 (one hour)"). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** The auth scheme a bearer token belongs to (the manifest's scheme names). */
export type TokenScheme = 'personal_access_token' | 'oauth';

/** What a presented token is. */
export type TokenStatus = { state: 'valid'; scheme: TokenScheme } | { state: 'expired' } | { state: 'unknown' };

/** The fake's credential state; the PAT and the OAuth app are derived from the sandbox seed. */
export class TokenStore {
  /** Shaped like a current Asana PAT: `2/<user gid>/<app gid>:<32 hex>`. */
  readonly personalAccessToken: string;
  /** Numeric, like Asana app client ids. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** B1 [3p]: refreshing does not rotate it; the token endpoint answers this same value. */
  readonly refreshToken: string;
  private refreshTokenRevoked = false;
  private readonly accessTokens = new Map<string, number>();

  constructor(
    seed: number,
    meGid: string,
    private readonly clock: FakeClock,
  ) {
    const rng = createPrng(seed ^ 0x7a5a7a);
    const appGid = String(1_209_000_000_000_000 + rng.int(0, 999_999_999));
    this.personalAccessToken = `2/${meGid}/${appGid}:${rng.hex(32)}`;
    this.clientId = String(1_208_000_000_000_000 + rng.int(0, 999_999_999));
    this.clientSecret = rng.hex(32);
    this.refreshToken = `2/${meGid}/${this.clientId}:${rng.hex(32)}`;
  }

  /**
   * Issues a fresh OAuth access token valid for `ttlSeconds` of the fake clock.
   * Why: the token endpoint and tests (short-lived tokens) both need tokens the fake accepts.
   */
  issueAccessToken(ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const token = `2/${randomBytes(24).toString('base64url')}:${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(token, this.clock.now() + ttlSeconds * 1000);
    return token;
  }

  /** Classifies a presented bearer token. Why: only tokens the fake issued, unexpired, pass (B6 401). */
  check(token: string): TokenStatus {
    if (token === this.personalAccessToken) return { state: 'valid', scheme: 'personal_access_token' };
    const expiresAt = this.accessTokens.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    if (expiresAt <= this.clock.now()) return { state: 'expired' };
    return { state: 'valid', scheme: 'oauth' };
  }

  /** Makes every issued OAuth access token expired now. Why: tests force the refresh path. */
  expireAllAccessTokens(): void {
    const past = this.clock.now() - 1;
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, past);
  }

  /**
   * Revokes the refresh token; later refreshes get `invalid_grant`. Access tokens already issued
   * stay valid until they expire. Why: tests exercise re-authorisation after a revoked grant.
   */
  revokeRefreshToken(): void {
    this.refreshTokenRevoked = true;
  }

  /** True when `token` is the current, unrevoked refresh token. */
  isRefreshTokenValid(token: string): boolean {
    return !this.refreshTokenRevoked && token === this.refreshToken;
  }
}
