/**
 * One OAuth app's grant at a fake upstream: the app's client credentials, the user's refresh
 * tokens and the access tokens refreshes hand out.
 */
import { AccessTokenLedger } from './access-tokens.js';
import { RefreshTokenChain } from './refresh-tokens.js';

/** What differs between upstreams' grants; token values derive from the sandbox seed. */
export interface GrantOptions {
  clientId: string;
  clientSecret: string;
  /** The refresh token the user's authorisation produced. */
  refreshToken: string;
  /** Mints refresh token number `sequence`: present for single-use rotation (Gong), absent for a stable token. */
  rotate?: (sequence: number) => string;
  /** The upstream's access-token shape (gets the expiry in epoch ms). */
  mintAccessToken: (expiresAtMs: number) => string;
  /** The upstream's `expires_in`. */
  accessTokenTtlSeconds: number;
  /** Scopes a refresh answers (empty when the upstream names none). */
  scopes?: readonly string[];
  /** The fake's clock (epoch ms). */
  now: () => number;
}

/** What a successful refresh hands out. */
export interface IssuedTokens {
  accessToken: string;
  /** The same refresh token (stable grants) or the next one (rotating grants). */
  refreshToken: string;
  expiresIn: number;
  scopes: readonly string[];
}

/** The grant: client credentials, refresh tokens and access tokens. */
export class OAuthGrant {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly refreshTokens: RefreshTokenChain;
  readonly accessTokens: AccessTokenLedger;

  constructor(options: GrantOptions) {
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.scopes = options.scopes ?? [];
    this.refreshTokens = new RefreshTokenChain({ first: options.refreshToken, next: options.rotate, now: options.now });
    this.accessTokens = new AccessTokenLedger({ mint: options.mintAccessToken, ttlSeconds: options.accessTokenTtlSeconds, now: options.now });
  }

  /**
   * Exchanges a valid refresh token (checked by the caller) for a new access token and the
   * refresh token to answer.
   * Why: every fake's token endpoint ends here once its upstream's checks passed.
   */
  refresh(refreshToken: string): IssuedTokens {
    const next = this.refreshTokens.spend(refreshToken);
    const expiresIn = this.accessTokens.ttlSeconds;
    return { accessToken: this.accessTokens.issue(expiresIn), refreshToken: next, expiresIn, scopes: this.scopes };
  }
}
