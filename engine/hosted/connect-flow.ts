/**
 * The Connect page's steps, apart from HTTP: start an OAuth authorization for a session, take the
 * callback back once, create the connector from typed-in credentials, and read the first sync's
 * progress. Every connector is created through createTenantConnector, as the API's POST does.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { finishAuthorization, startAuthorization } from '../auth/index.js';
import { AuthorizationFailedError, ConnectSessionExpiredError, NotFoundError, UnauthenticatedError } from '../errors.js';
import { findManifest } from '../manifest/index.js';
import type { ConnectorRow, ConnectSessionRow, Tenant } from '../store/index.js';
import { createTenantConnector, type ConnectorInput } from './connector-create.js';
import { openSession, StateSigner } from './connect-sessions.js';
import type { HostedContext } from './hosted-context.js';
import type { OAuthApp } from './server-options.js';

/** The path the upstream sends the browser back to; the operator registers `<service URL>/connect/callback` with each OAuth app. */
export const CONNECT_CALLBACK_PATH = '/connect/callback';

/** What a finished flow shows. */
export interface ConnectOutcome {
  row: ConnectorRow;
  session: ConnectSessionRow;
  statusKey: string;
}

function tenantOfSession(session: ConnectSessionRow): Tenant {
  return { clientId: session.client_id, externalUserId: session.external_user_id };
}

/** The Connect page's state signer, OAuth apps and connector creation over the hosted context. */
export class ConnectFlow {
  private readonly signer: StateSigner;
  private readonly statusKeyMac: Buffer;

  constructor(private readonly context: HostedContext) {
    this.signer = new StateSigner(context.options.serviceKey);
    this.statusKeyMac = createHmac('sha256', context.options.serviceKey).update('connector-engine connect status v1').digest();
  }

  /** The session of a link, refused when unknown, expired, used, or its platform client was revoked. */
  async session(token: string): Promise<ConnectSessionRow> {
    const session = await openSession(this.context.store, token, this.context.clock.now());
    const client = await this.context.tenancy.clientIsLive(session.client_id);
    if (!client.live) throw new UnauthenticatedError('the app that created this connect link no longer has access');
    return session;
  }

  /** The types a session offers, as the type page's check: a type outside the session is NOT_FOUND. */
  allowedType(session: ConnectSessionRow, type: string): string {
    const known = findManifest(type).manifest.type;
    if (session.connector_types && !session.connector_types.includes(known)) {
      throw new NotFoundError(`this connect link does not offer ${known}`, {
        details: [{ path: '/type', message: `must be one of ${session.connector_types.join(', ')}` }],
      });
    }
    return known;
  }

  /** The OAuth app of a type: the service's own (sandbox) first, then the operator's stored one; undefined when none. */
  async oauthApp(type: string): Promise<OAuthApp | undefined> {
    const own = this.context.options.oauthApps?.[type];
    if (own) return own;
    const stored = await this.context.store.connectRecords().findOAuthApp(type);
    return stored && { client_id: stored.client_id, client_secret: this.context.cipher.decrypt(stored.secret_ciphertext) };
  }

  /**
   * The upstream's authorize URL for a session and type, with a fresh signed state (and PKCE
   * verifier, kept encrypted) recorded on the session. Why: only the latest state of a session is
   * taken back, once.
   */
  async authorize(session: ConnectSessionRow, type: string, origin: string, app: OAuthApp, config: Record<string, unknown>): Promise<string> {
    const nonce = randomBytes(16).toString('base64url');
    const state = this.signer.sign({ sessionId: session.id, type, nonce });
    const baseUrl = this.context.options.upstreams?.[type];
    const start = startAuthorization(type, {
      credentials: { client_id: app.client_id },
      redirectUri: origin + CONNECT_CALLBACK_PATH,
      state,
      config,
      ...(baseUrl ? { baseUrl } : {}),
    });
    const verifier = start.codeVerifier ? this.context.cipher.encrypt(start.codeVerifier) : null;
    await this.context.store
      .connectRecords()
      .startAuthorization(session.id, { state_type: type, state_nonce: nonce, verifier_ciphertext: verifier, state_config: config });
    return start.url;
  }

  /**
   * Takes a callback: its state must be this service's, the latest of its session and unused; it
   * is used up before anything else happens, so opening the same callback twice is refused. Then
   * the code is exchanged, and the credentials checked and stored as a new connector.
   */
  async callback(query: Record<string, string>, origin: string): Promise<ConnectOutcome> {
    const claims = this.signer.verify(query.state);
    const records = this.context.store.connectRecords();
    const stored = await records.findSession(claims.sessionId);
    if (!stored)
      throw new NotFoundError('this connect link is not known; ask the app for a new one', { details: [{ path: '/session', message: 'is unknown' }] });
    const replayed = stored.state_nonce !== claims.nonce || stored.state_type !== claims.type || stored.state_used_at !== null;
    if (replayed || !(await records.useState(stored.id, claims.nonce, this.context.clock.now()))) {
      throw new AuthorizationFailedError('this sign-in was already used: an authorization is taken back once; start again from the app', {
        details: [{ path: '/callback/state', message: 'was already used' }],
      });
    }
    const app = await this.oauthApp(claims.type);
    if (!app)
      throw new AuthorizationFailedError(`no OAuth app is configured for ${claims.type}`, { details: [{ path: '/type', message: 'has no OAuth app' }] });
    const session = await this.checkedAgain(stored);
    const baseUrl = this.context.options.upstreams?.[claims.type];
    const credentials = await finishAuthorization(claims.type, {
      credentials: { ...app },
      callback: query,
      state: query.state ?? '',
      redirectUri: origin + CONNECT_CALLBACK_PATH,
      ...(session.verifier_ciphertext ? { codeVerifier: this.context.cipher.decrypt(session.verifier_ciphertext) } : {}),
      config: session.state_config ?? {},
      ...(baseUrl ? { baseUrl } : {}),
      clock: this.context.clock,
    });
    return this.create(session, { connector_type: claims.type, credentials, config: session.state_config ?? {} });
  }

  /** The session re-checked for expiry and use at the callback (the state check needs none). */
  private async checkedAgain(session: ConnectSessionRow): Promise<ConnectSessionRow> {
    const fresh = await this.context.store.connectRecords().findSession(session.id);
    if (!fresh) throw new NotFoundError('this connect link is not known', { details: [{ path: '/session', message: 'is unknown' }] });
    const now = this.context.clock.now();
    if (fresh.completed_at !== null || fresh.expires_at <= now) {
      // openSession words both cases; it needs the token, which the callback does not carry.
      throw new ConnectSessionExpiredError(
        fresh.completed_at !== null ? 'this connect link was already used to connect an account' : 'this connect link has expired; ask the app for a new one',
        {
          details: [{ path: '/session', message: fresh.completed_at !== null ? 'was already used' : 'has expired' }],
        },
      );
    }
    return fresh;
  }

  /**
   * Creates the session's connector once: the session is taken first (a second creation waits for
   * nothing and is refused), and given back when the creation fails, so the user can correct it.
   */
  async create(session: ConnectSessionRow, input: ConnectorInput): Promise<ConnectOutcome> {
    const records = this.context.store.connectRecords();
    if (!(await records.claim(session.id, this.context.clock.now()))) {
      throw new ConnectSessionExpiredError('this connect link was already used to connect an account', {
        details: [{ path: '/session', message: 'was already used' }],
      });
    }
    let row: ConnectorRow;
    try {
      row = await createTenantConnector(this.context, tenantOfSession(session), input);
    } catch (error) {
      await records.release(session.id);
      throw error;
    }
    await records.complete(session.id, row.id);
    return { row, session, statusKey: this.statusKey(session.id) };
  }

  /**
   * The key of a session's progress endpoint: its id and a 128-bit MAC of it, so the page needs no
   * platform token. Both base64url, to stay under the router's longest path parameter.
   */
  statusKey(id: string): string {
    const mac = createHmac('sha256', this.statusKeyMac).update(id).digest().subarray(0, 16).toString('base64url');
    return `${Buffer.from(id, 'hex').toString('base64url')}.${mac}`;
  }

  /** The first sync's progress of the session a status key names. */
  async progress(key: string): Promise<{ connector_id: string; running: boolean; entities: Array<{ entity: string; status: string; records: number }> }> {
    const id = Buffer.from(key.split('.')[0] ?? '', 'base64url').toString('hex');
    const expected = Buffer.from(this.statusKey(id));
    const given = Buffer.from(key);
    const session =
      expected.length === given.length && timingSafeEqual(expected, given) ? await this.context.store.connectRecords().findSession(id) : undefined;
    if (!session?.connector_id)
      throw new NotFoundError('no connector was created through this link', { details: [{ path: '/key', message: 'names no connector' }] });
    const status = await this.context.syncStatus(tenantOfSession(session), session.connector_id);
    return {
      connector_id: status.connector_id,
      running: status.running,
      entities: status.entities.map((state) => ({ entity: state.entity, status: state.status, records: state.records })),
    };
  }
}
