/**
 * Connect sessions (issue 16): the single-use, short-lived link a platform hands its end user, and
 * the OAuth `state` bound to one session and one connector type.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AuthorizationFailedError, ConnectSessionExpiredError, NotFoundError } from '../errors.js';
import type { ConnectSessionRow, Store } from '../store/index.js';

/** How long a session's link works: long enough to find a password, short enough that a leaked link soon dies. */
export const CONNECT_SESSION_TTL_MS = 30 * 60_000;

/** The store key of a session: the SHA-256 of its link's token, so a database read never yields a working link. */
export function sessionId(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A fresh link token: 256 random bits. Why: the link is the only thing the end user's browser holds. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The session a link's token opens, or a typed error: an unknown token is NOT_FOUND, one past its
 * lifetime (on the service's clock) or already used is CONNECT_SESSION_EXPIRED.
 * Why: every page of the flow checks the session first, and says plainly why it cannot go on.
 */
export async function openSession(store: Store, token: string, now: number): Promise<ConnectSessionRow> {
  const session = /^[A-Za-z0-9_-]{43}$/.test(token) ? await store.connectRecords().findSession(sessionId(token)) : undefined;
  if (!session)
    throw new NotFoundError('this connect link is not known; ask the app for a new one', { details: [{ path: '/session', message: 'is unknown' }] });
  if (session.completed_at !== null) {
    throw new ConnectSessionExpiredError('this connect link was already used to connect an account; ask the app for a new one', {
      details: [{ path: '/session', message: 'was already used' }],
    });
  }
  if (session.expires_at <= now) {
    throw new ConnectSessionExpiredError('this connect link has expired; ask the app for a new one', {
      details: [{ path: '/session', message: `expired at ${new Date(session.expires_at).toISOString()}` }],
    });
  }
  return session;
}

/** What a verified state names. */
export interface StateClaims {
  sessionId: string;
  type: string;
  nonce: string;
}

/** Signs and checks OAuth states with a key derived from the service key. */
export class StateSigner {
  private readonly key: Buffer;

  constructor(serviceKey: Buffer) {
    this.key = createHmac('sha256', serviceKey).update('connector-engine connect state v1').digest();
  }

  /** `<session id>.<type>.<nonce>.<mac>`: bound to the session and the type, unique by its nonce. */
  sign(claims: StateClaims): string {
    const payload = `${claims.sessionId}.${claims.type}.${claims.nonce}`;
    return `${payload}.${this.mac(payload)}`;
  }

  /**
   * The claims of a state this service signed, or AUTHORIZATION_FAILED. Why: a forged state names
   * another session or type; only the service key makes a valid one.
   */
  verify(state: string | undefined): StateClaims {
    const parts = (state ?? '').split('.');
    const [id, type, nonce, mac] = parts;
    const payload = `${id}.${type}.${nonce}`;
    const expected = Buffer.from(this.mac(payload));
    if (parts.length !== 4 || !id || !type || !nonce || !mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), expected)) {
      throw new AuthorizationFailedError('the authorization came back with a state this service did not issue', {
        details: [{ path: '/callback/state', message: state === undefined ? 'is missing' : 'is not a state this service signed' }],
      });
    }
    return { sessionId: id, type, nonce };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
