import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { systemClock, type Clock } from '../clock/index.js';
import { UnauthenticatedError } from '../errors.js';

/** Who a scoped token speaks for. */
export interface TokenScope {
  clientId: string;
  externalUserId: string;
}

const AUDIENCE = 'connector-engine';
export const TOKEN_TTL_SECONDS = 15 * 60;
/** The most verified tokens kept; past it the cache starts over (tokens live 15 minutes, so real traffic stays far below). */
const MAX_VERIFIED = 10_000;

/** A token whose signature and claims were checked: its scope and when it expires (ms). */
interface Verified {
  scope: TokenScope;
  expiresAtMs: number;
}

/**
 * Issues and checks the short-lived tokens the hosted API takes: HS256 JWTs scoped to one platform
 * client and one external user. The signing key is derived from the service key, so a token from
 * another deployment (another key) never verifies.
 */
export class TokenIssuer {
  private readonly key: Uint8Array;
  /**
   * Tokens already verified, by their exact text: the HMAC check and the claim parsing run once
   * per token, not once per request. Only the exact same text hits, so a token of another tenant
   * (or any altered one) is verified on its own. Revocation is not a property of the token: the
   * authenticator checks the client on every request.
   */
  private readonly verified = new Map<string, Verified>();

  constructor(
    serviceKey: Buffer,
    private readonly ttlSeconds = TOKEN_TTL_SECONDS,
    private readonly clock: Clock = systemClock,
  ) {
    this.key = createHmac('sha256', serviceKey).update('connector-engine scoped tokens v1').digest();
  }

  /** A token for one external user, valid `ttlSeconds`. */
  async issue(scope: TokenScope): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const token = await new SignJWT({ cid: scope.clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(scope.externalUserId)
      .setAudience(AUDIENCE)
      .setIssuedAt(this.seconds())
      .setExpirationTime(this.seconds() + this.ttlSeconds)
      .sign(this.key);
    return { access_token: token, token_type: 'Bearer', expires_in: this.ttlSeconds };
  }

  private seconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /**
   * The scope of a token already verified and not expired since, without a promise: the
   * authenticator's fast path on every request. Undefined sends the caller to {@link verify}.
   */
  verifiedScope(token: string): TokenScope | undefined {
    const kept = this.verified.get(token);
    // jose's rule, in ms: valid while the current second is before `exp`.
    return kept && this.clock.now() < kept.expiresAtMs ? kept.scope : undefined;
  }

  /** The scope of a valid token; expired, forged or foreign tokens are UNAUTHENTICATED. */
  async verify(token: string): Promise<TokenScope> {
    const scope = this.verifiedScope(token);
    if (scope) return scope;
    this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.key, { audience: AUDIENCE, algorithms: ['HS256'], currentDate: new Date(this.clock.now()) });
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.exp !== 'number') throw new Error('claims missing');
      const scope: TokenScope = Object.freeze({ clientId: payload.cid, externalUserId: payload.sub });
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.set(token, { scope, expiresAtMs: payload.exp * 1000 });
      return scope;
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new UnauthenticatedError(expired ? 'the access token has expired; get a new one from /v1/auth/token' : 'the access token is not valid');
    }
  }
}
