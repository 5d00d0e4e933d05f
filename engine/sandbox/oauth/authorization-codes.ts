/**
 * The authorization codes a fake's consent page hands out: what each was issued for, when it
 * expires, and whether it was redeemed (RFC 6749 §4.1.2: short-lived, single-use).
 */
import { createHash, randomBytes } from 'node:crypto';

/** A PKCE challenge sent with the authorization request (RFC 7636 §4.3). */
export interface PkceChallenge {
  value: string;
  method: 'S256' | 'plain';
}

/** What the user approved: the client, where to send the code, the scopes, and the PKCE challenge. */
export interface CodeRequest {
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  challenge?: PkceChallenge;
}

/** One code ever issued. */
export interface IssuedCode extends CodeRequest {
  code: string;
  expiresAtMs: number;
  /** Set once it was exchanged. */
  redeemedAtMs?: number;
}

/** How a fake's codes look and live. */
export interface CodeOptions {
  /** The upstream's code shape; default 32 random bytes, base64url. */
  mint?: () => string;
  /** Lifetime in seconds (LwA: 5 minutes, API-NOTES A.2; RFC 6749 §4.1.2 recommends at most 10). */
  ttlSeconds: number;
  now: () => number;
}

/** The codes of one OAuth app. */
export class AuthorizationCodes {
  private readonly issued = new Map<string, IssuedCode>();

  constructor(private readonly options: CodeOptions) {}

  /** Issues a code for an approved request. Why: the consent page's Approve answers with one. */
  issue(request: CodeRequest): string {
    const code = this.options.mint?.() ?? randomBytes(32).toString('base64url');
    this.issued.set(code, { ...request, code, expiresAtMs: this.options.now() + this.options.ttlSeconds * 1000 });
    return code;
  }

  /** The record of a code, or undefined for one never issued. Why: the token endpoint checks before it redeems. */
  find(code: string): IssuedCode | undefined {
    return this.issued.get(code);
  }

  /** True once the code's lifetime on the fake's clock is over. */
  expired(record: IssuedCode): boolean {
    return record.expiresAtMs <= this.options.now();
  }

  /** Marks a code redeemed; a second exchange of it is a reuse. */
  redeem(record: IssuedCode): void {
    record.redeemedAtMs = this.options.now();
  }
}

/**
 * True when `verifier` answers `challenge` (RFC 7636 §4.6: S256 compares
 * BASE64URL(SHA256(verifier)), plain compares the verifier itself).
 * Why: a code issued with a challenge is only exchanged with its verifier.
 */
export function verifierMatches(challenge: PkceChallenge, verifier: string): boolean {
  const derived = challenge.method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  return derived === challenge.value;
}
