/**
 * The access tokens a fake upstream handed out, each with its expiry on the fake's clock.
 */

/** What a presented access token is. */
export type AccessTokenState = { state: 'valid' } | { state: 'expired'; expiredAtMs: number } | { state: 'revoked' } | { state: 'unknown' };

/** How a fake's access tokens look and live. */
export interface AccessTokenOptions {
  /** The upstream's token shape; gets the expiry (epoch ms) for shapes that embed it (Gong's JWTs). */
  mint: (expiresAtMs: number) => string;
  /** Lifetime of a token issued without one (the upstream's `expires_in`). */
  ttlSeconds: number;
  /** The fake's clock (epoch ms). */
  now: () => number;
  /** Tokens that never expire (Shopify's custom-app token); they can still be revoked. */
  permanent?: readonly string[];
}

/** Issued tokens, their expiries and revocations. */
export class AccessTokenLedger {
  /** Token to expiry (epoch ms); Infinity for permanent tokens. */
  private readonly expiries = new Map<string, number>();
  private readonly revoked = new Set<string>();

  constructor(private readonly options: AccessTokenOptions) {
    for (const token of options.permanent ?? []) this.expiries.set(token, Number.POSITIVE_INFINITY);
  }

  /** The lifetime of a token issued without one. Why: the token endpoints answer it as `expires_in`. */
  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  /**
   * Issues a fresh token valid for `ttlSeconds` of the fake's clock.
   * Why: the token endpoints and tests (short-lived tokens) both need tokens the fake accepts.
   */
  issue(ttlSeconds: number = this.options.ttlSeconds): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const expiresAt = this.options.now() + ttlSeconds * 1000;
    const token = this.options.mint(expiresAt);
    this.expiries.set(token, expiresAt);
    return token;
  }

  /**
   * Classifies a presented token.
   * Why: each fake's auth check answers unknown, expired and revoked tokens its upstream's way.
   */
  check(token: string): AccessTokenState {
    if (this.revoked.has(token)) return { state: 'revoked' };
    const expiresAt = this.expiries.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    if (expiresAt <= this.options.now()) return { state: 'expired', expiredAtMs: expiresAt };
    return { state: 'valid' };
  }

  /** Makes every issued token expired now; permanent ones are unaffected. Why: tests force the refresh path. */
  expireAll(): void {
    const past = this.options.now() - 1;
    for (const [token, expiresAt] of this.expiries) {
      if (expiresAt !== Number.POSITIVE_INFINITY) this.expiries.set(token, past);
    }
  }

  /**
   * Revokes a token (permanent ones too); true when it was known.
   * Why: an uninstalled app's token must get the same 401 as an unknown one (Shopify B.2).
   */
  revoke(token: string): boolean {
    const known = this.expiries.has(token);
    if (known) this.revoked.add(token);
    return known;
  }
}
