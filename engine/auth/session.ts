import { systemClock, type Clock } from '../clock/index.js';
import { EngineError, InternalError } from '../errors.js';
import type { EgressPolicy, Redactor, UpstreamRequestListener } from '../http/index.js';
import type { AuthScheme } from '../manifest/index.js';
import { OAuthRefresher, type Credentials } from './oauth-refresh.js';
import { compileSigner, type Signer } from './sign.js';

/** Receives rotated credentials; awaited before the new tokens are used. */
export type CredentialsChangeHandler = (credentials: Credentials) => void | Promise<void>;

/**
 * Serializes refreshes across processes that share stored credentials (hosted mode). It runs
 * `refresh` on the latest stored credentials under a lock and stores the result before releasing
 * it, unless the stored access token already differs from `stale` (another process refreshed):
 * then it returns the stored credentials without refreshing.
 */
export interface RefreshCoordinator {
  refresh(stale: Credentials, refresh: (latest: Credentials) => Promise<Credentials>): Promise<{ credentials: Credentials; refreshed: boolean }>;
}

export interface AuthSessionOptions {
  scheme: AuthScheme;
  credentials: Credentials;
  config: Record<string, unknown>;
  label: string;
  redact: Redactor;
  timeoutMs: number;
  /** Where the token endpoint may be reached (hosts.token, operator-named origins). */
  egress: EgressPolicy;
  tokenOrigin?: string;
  onCredentialsChange?: CredentialsChangeHandler;
  coordinator?: RefreshCoordinator;
  /** Told when a call ends in REAUTH_REQUIRED: the credentials are dead until the user connects again. */
  onAuthFailure?: (error: EngineError) => void | Promise<void>;
  /** Told of each token endpoint request (metrics). */
  onRequest?: UpstreamRequestListener;
  /** Where expiry is read (default: real time). */
  clock?: Clock;
}

const DEFAULT_SKEW_SECONDS = 60;

/**
 * The credentials of one connector and everything that keeps them valid: signing, proactive
 * refresh before expiry, one reactive refresh after a 401, and a single refresh in flight no
 * matter how many calls find the token stale (double-checked: a call whose token was already
 * replaced uses the new one instead of refreshing again).
 */
export class AuthSession {
  private current: Credentials;
  private readonly signer: Signer;
  private readonly refresher?: OAuthRefresher;
  private inFlight?: Promise<void>;
  /** How many refreshes this session performed (tests and metrics read it). */
  refreshes = 0;

  constructor(private readonly options: AuthSessionOptions) {
    this.current = { ...options.credentials };
    this.signer = compileSigner(options.scheme.sign);
    const oauth = options.scheme.oauth2;
    if (oauth) {
      this.refresher = new OAuthRefresher(
        oauth,
        options.label,
        options.redact,
        options.timeoutMs,
        options.egress,
        options.tokenOrigin,
        options.onRequest,
        options.clock ?? systemClock,
      );
    }
  }

  /** The credential set in use now (after any rotation). */
  get credentials(): Credentials {
    return this.current;
  }

  /** Whether a call may wait for a token refresh (OAuth schemes): only then does a call's deadline need to bound the wait around its sends. */
  get canRefresh(): boolean {
    return this.refresher !== undefined;
  }

  get schemeName(): string {
    return this.options.scheme.name;
  }

  private needsRefresh(): boolean {
    if (!this.refresher) return false;
    const token = this.current.access_token;
    if (typeof token !== 'string' || token === '') return true;
    const expiresAt = Date.parse(String(this.current.expires_at ?? ''));
    if (Number.isNaN(expiresAt)) return false;
    const skew = (this.options.scheme.oauth2?.refresh_before_expiry_seconds ?? DEFAULT_SKEW_SECONDS) * 1000;
    return expiresAt - skew <= (this.options.clock ?? systemClock).now();
  }

  /**
   * Runs one refresh, or joins the one in flight. `staleToken` is the access token the caller saw
   * rejected: if it has been replaced meanwhile, the caller just retries with the new one.
   */
  private refresh(staleToken?: unknown): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (staleToken !== undefined && this.current.access_token !== staleToken) return Promise.resolve();
    this.inFlight = this.performRefresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async performRefresh(): Promise<void> {
    const refresher = this.refresher as OAuthRefresher;
    const run = (latest: Credentials) => refresher.refresh({ credentials: latest, config: this.options.config });
    if (this.options.coordinator) {
      // The coordinator stores the new set before releasing its lock; nothing else to persist.
      const outcome = await this.options.coordinator.refresh(this.current, run);
      if (outcome.refreshed) this.refreshes++;
      this.current = outcome.credentials;
      return;
    }
    const next = await run(this.current);
    this.refreshes++;
    // Rotated refresh tokens are single-use upstream: keep the new set in memory whatever happens,
    // and hand it to the caller's store before any request uses it.
    this.current = next;
    try {
      await this.options.onCredentialsChange?.({ ...next });
    } catch (error) {
      throw new InternalError(`onCredentialsChange failed: ${this.options.redact((error as Error)?.message ?? String(error))}`);
    }
  }

  /** The headers that sign a request with the current credentials. */
  sign(): Record<string, string> {
    return this.signer({ credentials: this.current, config: this.options.config });
  }

  /**
   * Runs `send` with fresh signing headers; on an upstream 401 refreshes once (OAuth schemes) and
   * sends again. A second 401 is final (REAUTH_REQUIRED from the error mapping).
   */
  async call<T>(send: (authHeaders: Record<string, string>) => Promise<T>): Promise<T> {
    try {
      if (this.needsRefresh()) await this.refresh();
      const used = this.current.access_token;
      try {
        return await send(this.sign());
      } catch (error) {
        if (!this.refresher || !(error instanceof EngineError) || error.upstream?.status !== 401) throw error;
        await this.refresh(used);
        return await send(this.sign());
      }
    } catch (error) {
      if (error instanceof EngineError && error.code === 'REAUTH_REQUIRED') await this.reportAuthFailure(error);
      throw error;
    }
  }

  /** Tells the owner of the credentials (hosted mode stores it) that the upstream refused them for good. */
  private async reportAuthFailure(error: EngineError): Promise<void> {
    try {
      await this.options.onAuthFailure?.(error);
    } catch {
      // The caller's answer is the refusal itself; failing to record it must not replace it.
    }
  }
}
