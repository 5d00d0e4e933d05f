/**
 * The refresh tokens of one OAuth grant: a stable token that answers every refresh (HubSpot,
 * Asana, Login with Amazon), or a chain of single-use tokens where each refresh mints the next
 * (Gong).
 */

/** Where an issued refresh token stands. */
export type RefreshTokenStatus = 'valid' | 'rotated' | 'revoked';

/** One refresh token ever issued, for tests that follow the rotation. */
export interface RefreshTokenRecord {
  token: string;
  issuedAtMs: number;
  status: RefreshTokenStatus;
  /** When it was exchanged (status `rotated`). */
  usedAtMs?: number;
}

/** What a presented refresh token is: an issued one's status, or unknown. */
export type RefreshTokenState = RefreshTokenStatus | 'unknown';

/** How a grant's refresh tokens behave. */
export interface RefreshTokenOptions {
  /** The token the user's authorisation produced (seed-derived, so stable per seed). */
  first: string;
  /**
   * Mints the token numbered `sequence` (the first is 0). Present: refresh tokens are single-use
   * and each refresh mints the next; absent: the first token answers every refresh.
   */
  next?: (sequence: number) => string;
  /** The fake's clock (epoch ms). */
  now: () => number;
}

/** The grant's refresh tokens, oldest first. */
export class RefreshTokenChain {
  private readonly chain: RefreshTokenRecord[] = [];

  constructor(private readonly options: RefreshTokenOptions) {
    this.chain.push({ token: options.first, issuedAtMs: options.now(), status: 'valid' });
  }

  /** The most recently issued token (valid unless revoked since). Why: describe() and tests. */
  get current(): string {
    return this.chain[this.chain.length - 1]!.token;
  }

  /** Where `token` stands, without changing anything. Why: the token endpoint checks before it spends. */
  state(token: string): RefreshTokenState {
    return this.chain.find((entry) => entry.token === token)?.status ?? 'unknown';
  }

  /**
   * Spends a valid token and returns the refresh token to answer: the same one when tokens are
   * stable; otherwise the presented one becomes `rotated` and a new one is minted (Gong C.1:
   * "Refresh tokens are single-use ... the old refresh token is invalidated"). Reusing a rotated
   * token later fails without touching the new one.
   */
  spend(token: string): string {
    const record = this.chain.find((entry) => entry.token === token);
    if (record?.status !== 'valid') throw new Error('only a valid refresh token can be spent');
    if (!this.options.next) return token;
    record.status = 'rotated';
    record.usedAtMs = this.options.now();
    return this.mint(this.options.next);
  }

  /**
   * Revokes the current token (the user disconnected the app); refreshes fail from then on.
   * Access tokens already issued stay valid until they expire.
   */
  revoke(): void {
    const current = this.chain[this.chain.length - 1]!;
    if (current.status === 'valid') current.status = 'revoked';
  }

  /** Revokes every token of the chain. Why: the tokens of a reused authorization code are revoked. */
  revokeAll(): void {
    for (const entry of this.chain) entry.status = 'revoked';
  }

  /**
   * Revokes the current token and issues a fresh valid one (the user authorised the app again).
   * Why: re-authorisation tests on rotating grants; a stable grant has one token for life.
   */
  reissue(): string {
    const next = this.options.next;
    if (!next) throw new Error('a stable refresh token is never reissued');
    this.revoke();
    return this.mint(next);
  }

  /** Every token issued, oldest first (copies). Why: tests follow the rotation. */
  records(): RefreshTokenRecord[] {
    return this.chain.map((entry) => ({ ...entry }));
  }

  private mint(next: (sequence: number) => string): string {
    const token = next(this.chain.length);
    this.chain.push({ token, issuedAtMs: this.options.now(), status: 'valid' });
    return token;
  }
}
