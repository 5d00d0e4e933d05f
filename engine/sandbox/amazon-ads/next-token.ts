/**
 * The v3 lists' opaque `nextToken` (API-NOTES A.4, A.5): it names the list, the profile, the
 * filters and the offset of the next page, and carries a MAC so a forged or edited token is refused.
 */
import { createHash, createHmac } from 'node:crypto';

/** What a token is bound to. */
export interface TokenBinding {
  /** Which list (`campaigns`, `portfolios`). */
  list: string;
  profileId: number;
  /** {@link filterFingerprint} of the request's filters. */
  fingerprint: string;
}

/**
 * A short stable hash of a request's normalised filters.
 * Why: a token is only valid with the filters of the request that produced it.
 */
export function filterFingerprint(filters: unknown): string {
  return createHash('sha256').update(JSON.stringify(filters)).digest('hex').slice(0, 16);
}

function mac(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex').slice(0, 24);
}

/**
 * Encodes the offset of the next page. Why: clients must treat it as opaque and send it back
 * verbatim in the body (A.4, A.5).
 */
export function encodeNextToken(secret: string, binding: TokenBinding, offset: number): string {
  const body = `${binding.list}|${binding.profileId}|${binding.fingerprint}|${offset}`;
  return Buffer.from(`${body}|${mac(secret, body)}`, 'utf8').toString('base64url');
}

/**
 * The offset a token stands for, or undefined when it is not a token this fake issued for the
 * same list, profile and filters.
 * Why: such tokens get the v3 400 (INVALID_TOKEN) instead of silently restarting the list.
 */
export function decodeNextToken(secret: string, binding: TokenBinding, token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const parts = Buffer.from(token, 'base64url').toString('utf8').split('|');
  if (parts.length !== 5) return undefined;
  const [list, profileId, fingerprint, offset, signature] = parts as [string, string, string, string, string];
  const body = `${list}|${profileId}|${fingerprint}|${offset}`;
  if (signature !== mac(secret, body)) return undefined;
  if (list !== binding.list || profileId !== String(binding.profileId) || fingerprint !== binding.fingerprint) return undefined;
  if (!/^\d{1,9}$/.test(offset)) return undefined;
  return Number(offset);
}
