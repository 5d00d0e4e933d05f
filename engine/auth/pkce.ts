/**
 * Proof Key for Code Exchange (RFC 7636): a fresh verifier per authorization and its challenge.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AuthorizationSpec } from '../manifest/index.js';

/** The PKCE method a manifest names. */
export type PkceMethod = NonNullable<AuthorizationSpec['pkce']>['method'];

/**
 * A verifier of 43 characters from the unreserved set (RFC 7636 §4.1: 32 random octets,
 * base64url). Why: it must be unguessable and new for every authorization.
 */
export function createCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The challenge of a verifier: BASE64URL(SHA256(verifier)) for S256, the verifier itself for plain (RFC 7636 §4.2). */
export function codeChallenge(verifier: string, method: PkceMethod): string {
  return method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
}
