/**
 * Credentials the Gong fake issued (API-NOTES C.1): one access key pair (Basic auth), one OAuth
 * app (client id and secret), a chain of single-use refresh tokens, and OAuth access tokens.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createPrng, type Prng } from '../prng.js';

/** C.1: `expires_in` is about one day [unverified; read it from the response]. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;

/** Scopes the fake OAuth app is granted: the read scopes of C.1's table for the served routes. */
export const GRANTED_SCOPES = [
  'api:calls:read:basic',
  'api:calls:read:extensive',
  'api:calls:read:media-url',
  'api:calls:read:transcript',
  'api:users:read',
  'api:workspaces:read',
] as const;

/** Where a refresh token stands. */
export type RefreshTokenStatus = 'valid' | 'rotated' | 'revoked';

/** One refresh token ever issued, for tests that follow the rotation. */
export interface RefreshTokenRecord {
  token: string;
  issuedAtMs: number;
  status: RefreshTokenStatus;
  /** When it was exchanged (status `rotated`). */
  usedAtMs?: number;
}

/** What a presented bearer token is. */
export type AccessTokenStatus = { state: 'valid' } | { state: 'expired'; expiredAtMs: number } | { state: 'unknown' };

/** The outcome of exchanging a refresh token. */
export type RotationOutcome = { ok: true; refreshToken: string } | { ok: false; reason: 'rotated' | 'revoked' | 'unknown' };

/** The fake's credential state; the long-lived values derive from the sandbox seed. */
export class GongTokenStore {
  /** Looks like a Gong access key (upper-case letters and digits). */
  readonly accessKey: string;
  /** Looks like a Gong access key secret (a JWT-shaped string). */
  readonly accessKeySecret: string;
  readonly clientId: string;
  readonly clientSecret: string;
  private readonly chain: RefreshTokenRecord[] = [];
  private readonly accessTokens = new Map<string, number>();

  constructor(
    seed: number,
    private readonly now: () => number = Date.now,
  ) {
    const rng = createPrng(seed ^ 0x60e6_7043);
    this.accessKey = upperToken(rng, 32);
    this.accessKeySecret = jwtShaped({ iss: 'gong', key: this.accessKey }, rng.hex(64));
    this.clientId = rng.hex(14);
    this.clientSecret = rng.hex(40);
    this.chain.push({ token: jwtShaped({ typ: 'refresh', client: this.clientId, n: 0 }, rng.hex(64)), issuedAtMs: this.now(), status: 'valid' });
  }

  /**
   * Issues an OAuth access token valid for `ttlSeconds`.
   * Why: the token endpoint and tests (short-lived tokens) need tokens the fake accepts.
   */
  issueAccessToken(ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS): string {
    if (!Number.isFinite(ttlSeconds)) throw new RangeError(`ttlSeconds must be finite, got ${ttlSeconds}`);
    const expiresAt = this.now() + ttlSeconds * 1000;
    const token = jwtShaped({ typ: 'access', client: this.clientId, exp: Math.floor(expiresAt / 1000), jti: randomBytes(12).toString('hex') }, randomBytes(32).toString('hex'));
    this.accessTokens.set(token, expiresAt);
    return token;
  }

  /** Classifies a bearer token. Why: unknown and expired tokens get different 401 texts. */
  checkAccessToken(token: string): AccessTokenStatus {
    const expiresAt = this.accessTokens.get(token);
    if (expiresAt === undefined) return { state: 'unknown' };
    if (expiresAt <= this.now()) return { state: 'expired', expiredAtMs: expiresAt };
    return { state: 'valid' };
  }

  /** Makes every access token issued so far expired. Why: tests force the refresh path. */
  expireAllAccessTokens(): void {
    const past = this.now() - 1;
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, past);
  }

  /** True for the configured access key pair. Why: Basic auth (C.1). */
  isAccessKey(key: string, secret: string): boolean {
    return key === this.accessKey && secret === this.accessKeySecret;
  }

  /** True for the OAuth app's client credentials. Why: the token endpoint's Basic client auth. */
  isClient(id: string, secret: string): boolean {
    return id === this.clientId && secret === this.clientSecret;
  }

  /**
   * Exchanges a refresh token: the presented one must be the current valid one; it becomes
   * `rotated` and a new one is issued (C.1: "Refresh tokens are single-use ... the old refresh
   * token is invalidated"). Reusing a rotated token fails without touching the new one (whether
   * Gong also revokes the newer token on reuse is [unverified]; the fake does not).
   */
  rotate(token: string): RotationOutcome {
    const record = this.chain.find((entry) => entry.token === token);
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.status !== 'valid') return { ok: false, reason: record.status };
    record.status = 'rotated';
    record.usedAtMs = this.now();
    return { ok: true, refreshToken: this.mintRefreshToken() };
  }

  /** The most recently issued refresh token (valid unless revoked since). Why: describe() and tests. */
  get currentRefreshToken(): string {
    return this.chain[this.chain.length - 1]!.token;
  }

  /** Every refresh token issued, oldest first (copies). Why: tests follow the rotation. */
  refreshTokens(): RefreshTokenRecord[] {
    return this.chain.map((entry) => ({ ...entry }));
  }

  /**
   * Revokes the current refresh token (the user disconnected the app); refreshes answer
   * invalid_grant until {@link issueRefreshToken}. Access tokens already issued stay valid.
   */
  revokeRefreshToken(): void {
    const current = this.chain[this.chain.length - 1]!;
    if (current.status === 'valid') current.status = 'revoked';
  }

  /** Issues a fresh valid refresh token (the user authorised the app again). Why: re-authorisation tests. */
  issueRefreshToken(): string {
    this.revokeRefreshToken();
    return this.mintRefreshToken();
  }

  private mintRefreshToken(): string {
    const token = jwtShaped({ typ: 'refresh', client: this.clientId, n: this.chain.length, jti: randomBytes(12).toString('hex') }, randomBytes(32).toString('hex'));
    this.chain.push({ token, issuedAtMs: this.now(), status: 'valid' });
    return token;
  }
}

const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function upperToken(rng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += UPPER_ALNUM[rng.int(0, UPPER_ALNUM.length - 1)];
  return out;
}

/** `base64url(header).base64url(payload).signature`: Gong's tokens and cursors are JWT-shaped. */
function jwtShaped(payload: Record<string, unknown>, key: string): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
