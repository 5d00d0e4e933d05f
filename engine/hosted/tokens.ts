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

/**
 * Issues and checks the short-lived tokens the hosted API takes: HS256 JWTs scoped to one platform
 * client and one external user. The signing key is derived from the service key, so a token from
 * another deployment (another key) never verifies.
 */
export class TokenIssuer {
  private readonly key: Uint8Array;

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

  /** The scope of a valid token; expired, forged or foreign tokens are UNAUTHENTICATED. */
  async verify(token: string): Promise<TokenScope> {
    try {
      const { payload } = await jwtVerify(token, this.key, { audience: AUDIENCE, algorithms: ['HS256'], currentDate: new Date(this.clock.now()) });
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') throw new Error('claims missing');
      return { clientId: payload.cid, externalUserId: payload.sub };
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new UnauthenticatedError(expired ? 'the access token has expired; get a new one from /v1/auth/token' : 'the access token is not valid');
    }
  }
}
