/**
 * Credentials the Gong fake issued (API-NOTES C.1): one access key pair (Basic auth) and one
 * OAuth app's grant (client id and secret, a chain of single-use refresh tokens, access tokens).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { OAuthGrant } from '../oauth/index.js';
import { createPrng, type Prng } from '../prng.js';

/** C.1: `expires_in` is about one day [unverified; read it from the response]. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;

/** Lifetime of an authorization code: Gong documents none; RFC 6749 §4.1.2 recommends at most 10 minutes [unverified]. */
export const CODE_TTL_SECONDS = 600;

/** Scopes the fake OAuth app is granted: the read scopes of C.1's table for the served routes. */
export const GRANTED_SCOPES = [
  'api:calls:read:basic',
  'api:calls:read:extensive',
  'api:calls:read:media-url',
  'api:calls:read:transcript',
  'api:users:read',
  'api:workspaces:read',
] as const;

/** The fake's credential state; the long-lived values derive from the sandbox seed. */
export interface GongCredentials {
  /** Looks like a Gong access key (upper-case letters and digits). */
  accessKey: string;
  /** Looks like a Gong access key secret (a JWT-shaped string). */
  accessKeySecret: string;
  /** The OAuth app; C.1: "Refresh tokens are single-use", so every refresh rotates. */
  grant: OAuthGrant;
}

/**
 * Derives the credentials from the seed; access tokens expire on `now`.
 * Why: the same seed must print the same credentials (the first refresh token included).
 */
export function gongCredentials(seed: number, now: () => number): GongCredentials {
  const rng = createPrng(seed ^ 0x60e6_7043);
  const accessKey = upperToken(rng, 32);
  const accessKeySecret = jwtShaped({ iss: 'gong', key: accessKey }, rng.hex(64));
  const clientId = rng.hex(14);
  const grant = new OAuthGrant({
    clientId,
    clientSecret: rng.hex(40),
    refreshToken: jwtShaped({ typ: 'refresh', client: clientId, n: 0 }, rng.hex(64)),
    mintRefreshToken: () => jwtShaped({ typ: 'refresh', client: clientId, n: 0, jti: randomBytes(12).toString('hex') }, randomBytes(32).toString('hex')),
    codeTtlSeconds: CODE_TTL_SECONDS,
    rotate: (n) => jwtShaped({ typ: 'refresh', client: clientId, n, jti: randomBytes(12).toString('hex') }, randomBytes(32).toString('hex')),
    mintAccessToken: (expiresAtMs) =>
      jwtShaped(
        { typ: 'access', client: clientId, exp: Math.floor(expiresAtMs / 1000), jti: randomBytes(12).toString('hex') },
        randomBytes(32).toString('hex'),
      ),
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    scopes: GRANTED_SCOPES,
    now,
  });
  return { accessKey, accessKeySecret, grant };
}

/** True for the configured access key pair. Why: Basic auth of the API routes (C.1). */
export function isAccessKey(credentials: GongCredentials, key: string, secret: string): boolean {
  return key === credentials.accessKey && secret === credentials.accessKeySecret;
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
