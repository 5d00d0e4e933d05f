/**
 * Asana's opaque pagination offsets: JWT-shaped tokens (the spec's example offset is the base64
 * of a JWT header) that name the list they belong to and expire (API-NOTES B2).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createPrng } from '../prng.js';
import type { FakeClock } from '../fake-clock.js';

/** How long an offset stays valid by default: five minutes ([unverified]; B2 only says they expire). */
export const DEFAULT_OFFSET_TTL_MS = 5 * 60_000;

const HEADER = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');

/** A decoded offset, or why it was refused. */
export type OffsetCheck = { ok: true; position: number } | { ok: false; reason: 'expired' | 'invalid' };

/** Issues and checks offsets for one fake. */
export class OffsetCodec {
  private readonly secret: string;

  constructor(
    seed: number,
    private readonly clock: FakeClock,
    private readonly ttlMs: number = DEFAULT_OFFSET_TTL_MS,
  ) {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`offset TTL must be positive, got ${ttlMs}`);
    this.secret = createPrng(seed ^ 0x0ff5e7).hex(64);
  }

  /**
   * An offset for the item at `position` of the list identified by `listKey`, expiring `ttlMs`
   * from now (rounded up to the second, as JWT `exp` is in seconds).
   * Why: B2: "Only offsets returned by the API are valid, and they expire after some time".
   */
  encode(listKey: string, position: number): string {
    const now = this.clock.now();
    const payload = Buffer.from(
      JSON.stringify({ list: digest(listKey), pos: position, iat: Math.floor(now / 1000), exp: Math.ceil((now + this.ttlMs) / 1000) }),
    ).toString('base64url');
    return `${HEADER}.${payload}.${this.sign(`${HEADER}.${payload}`)}`;
  }

  /**
   * The position an offset points at, if the fake issued it for this very list and it has not
   * expired. Forged, altered, foreign (another list's) and garbled offsets are `invalid`.
   */
  decode(token: string, listKey: string): OffsetCheck {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'invalid' };
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const provided = Buffer.from(signature);
    if (expected.length !== provided.length || !timingSafeEqual(expected, provided)) return { ok: false, reason: 'invalid' };
    let claims: { list?: unknown; pos?: unknown; exp?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (claims.list !== digest(listKey) || typeof claims.pos !== 'number' || typeof claims.exp !== 'number') return { ok: false, reason: 'invalid' };
    if (this.clock.now() >= claims.exp * 1000) return { ok: false, reason: 'expired' };
    return { ok: true, position: claims.pos };
  }

  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64url');
  }
}

function digest(listKey: string): string {
  return createHash('sha256').update(listKey).digest('hex').slice(0, 16);
}
