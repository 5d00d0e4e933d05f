/**
 * One OAuth app's grant at a fake upstream: the app's client credentials and registered redirect
 * URIs, the authorization codes its consent page issues, the user's refresh tokens (the seeded
 * authorization's, plus one chain per exchanged code) and the access tokens they hand out.
 */
import { AccessTokenLedger } from './access-tokens.js';
import { AuthorizationCodes, type CodeRequest, type IssuedCode } from './authorization-codes.js';
import { RefreshTokenChain, type RefreshTokenState } from './refresh-tokens.js';

/** What differs between upstreams' grants; token values derive from the sandbox seed. */
export interface GrantOptions {
  clientId: string;
  clientSecret: string;
  /** The refresh token the user's authorisation produced. */
  refreshToken: string;
  /** Mints the refresh token of a new authorization (an exchanged code), in the upstream's shape. */
  mintRefreshToken: () => string;
  /** Mints refresh token number `sequence`: present for single-use rotation (Gong), absent for a stable token. */
  rotate?: (sequence: number) => string;
  /** The upstream's access-token shape (gets the expiry in epoch ms). */
  mintAccessToken: (expiresAtMs: number) => string;
  /** The upstream's `expires_in`. */
  accessTokenTtlSeconds: number;
  /** Scopes the app may ask for; a refresh answers them all (empty when the upstream names none). */
  scopes?: readonly string[];
  /** Lifetime of an authorization code in seconds. */
  codeTtlSeconds: number;
  /** The upstream's code shape (default 32 random bytes, base64url). */
  mintCode?: () => string;
  /** The fake's clock (epoch ms). */
  now: () => number;
}

/** What a successful refresh or code exchange hands out. */
export interface IssuedTokens {
  accessToken: string;
  /** The same refresh token (stable grants) or the next one (rotating grants); a new one for an exchanged code. */
  refreshToken: string;
  expiresIn: number;
  scopes: readonly string[];
}

/** The tokens one authorization produced, so a reused code can revoke them. */
interface Authorization {
  chain: RefreshTokenChain;
  accessTokens: string[];
  scopes: readonly string[];
}

/** The grant: client credentials, codes, refresh tokens and access tokens. */
export class OAuthGrant {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  /** The seeded authorization's refresh tokens (the ones the sandbox prints). */
  readonly refreshTokens: RefreshTokenChain;
  readonly accessTokens: AccessTokenLedger;
  readonly codes: AuthorizationCodes;
  /** Redirect URIs registered with the app; the consent page sends codes nowhere else. */
  readonly redirectUris = new Set<string>();
  private readonly authorizations: Authorization[] = [];
  private readonly byCode = new Map<string, Authorization>();

  constructor(private readonly options: GrantOptions) {
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.scopes = options.scopes ?? [];
    this.refreshTokens = new RefreshTokenChain({ first: options.refreshToken, next: options.rotate, now: options.now });
    this.accessTokens = new AccessTokenLedger({ mint: options.mintAccessToken, ttlSeconds: options.accessTokenTtlSeconds, now: options.now });
    this.codes = new AuthorizationCodes({ ttlSeconds: options.codeTtlSeconds, now: options.now, ...(options.mintCode ? { mint: options.mintCode } : {}) });
    this.authorizations.push({ chain: this.refreshTokens, accessTokens: [], scopes: this.scopes });
  }

  /** Where a presented refresh token stands, whichever authorization issued it. */
  refreshTokenState(token: string): RefreshTokenState {
    for (const { chain } of this.authorizations) {
      const state = chain.state(token);
      if (state !== 'unknown') return state;
    }
    return 'unknown';
  }

  /**
   * Exchanges a valid refresh token (checked by the caller) for a new access token and the
   * refresh token to answer.
   * Why: every fake's token endpoint ends here once its upstream's checks passed.
   */
  refresh(refreshToken: string): IssuedTokens {
    const authorization = this.authorizations.find(({ chain }) => chain.state(refreshToken) !== 'unknown')!;
    const next = authorization.chain.spend(refreshToken);
    return this.tokensFor(authorization, next);
  }

  /** Issues a code for an approved consent. Why: the consent page's Approve button. */
  issueCode(request: CodeRequest): string {
    return this.codes.issue(request);
  }

  /**
   * Redeems a valid code (checked by the caller): a new authorization with its own refresh token
   * and a first access token, for the scopes the user approved.
   */
  exchange(record: IssuedCode): IssuedTokens {
    this.codes.redeem(record);
    const chain = new RefreshTokenChain({ first: this.options.mintRefreshToken(), next: this.options.rotate, now: this.options.now });
    const authorization: Authorization = { chain, accessTokens: [], scopes: record.scopes };
    this.authorizations.push(authorization);
    this.byCode.set(record.code, authorization);
    return this.tokensFor(authorization, chain.current);
  }

  /**
   * Revokes every token issued from a code (RFC 6749 §4.1.2: on a reused code the server "SHOULD
   * revoke (when possible) all tokens previously issued based on that authorization code").
   */
  revokeCode(code: string): void {
    const authorization = this.byCode.get(code);
    if (!authorization) return;
    authorization.chain.revokeAll();
    for (const token of authorization.accessTokens) this.accessTokens.revoke(token);
  }

  private tokensFor(authorization: Authorization, refreshToken: string): IssuedTokens {
    const expiresIn = this.accessTokens.ttlSeconds;
    const accessToken = this.accessTokens.issue(expiresIn);
    authorization.accessTokens.push(accessToken);
    return { accessToken, refreshToken, expiresIn, scopes: authorization.scopes };
  }
}
