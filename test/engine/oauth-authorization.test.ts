/**
 * The OAuth authorization-code flow through the library API, against the sandbox fakes over real
 * HTTP on loopback: the authorize URL built from each manifest, the fake's consent page (Approve or
 * Deny, the form posted as a browser does, the redirect followed to the app's callback), the code
 * exchanged by the engine, and the credentials used for a real execute. Then what goes wrong: a
 * denied consent, a reused or expired code, another redirect URI, a wrong PKCE verifier, a wrong
 * client secret, a forged state.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  connect,
  createManualClock,
  finishAuthorization,
  findManifest,
  startAuthorization,
  type AuthorizationStart,
  type EngineError,
  type ListResult,
} from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { decideOnConsentPage, startCallbackReceiver, type CallbackReceiver } from '../support/oauth-consent.js';

type OAuthType = 'hubspot' | 'asana' | 'gong' | 'amazon-ads';
const TYPES: OAuthType[] = ['hubspot', 'asana', 'gong', 'amazon-ads'];

/** What each upstream's flow looks like (API-NOTES A2, B1, C.1, A.2). */
const FLOWS: Record<OAuthType, { path: string; query: string[]; scope: string; ttlSeconds: number }> = {
  hubspot: {
    path: '/oauth/authorize',
    query: ['client_id', 'redirect_uri', 'scope', 'state'],
    scope: 'oauth crm.objects.contacts.read crm.objects.companies.read crm.objects.deals.read tickets crm.objects.custom.read crm.schemas.custom.read',
    ttlSeconds: 1800,
  },
  asana: {
    path: '/-/oauth_authorize',
    query: ['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'scope', 'state'],
    scope: 'default',
    ttlSeconds: 3600,
  },
  gong: {
    path: '/oauth2/authorize',
    query: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'],
    scope: 'api:calls:read:basic api:calls:read:extensive api:calls:read:transcript api:users:read api:workspaces:read',
    ttlSeconds: 86_400,
  },
  'amazon-ads': {
    path: '/ap/oa',
    query: ['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'scope', 'state'],
    scope: 'advertising::campaign_management',
    ttlSeconds: 3600,
  },
};

/** Each fake's refusal of a code that was already exchanged: HTTP status and the message the engine quotes. */
const REUSED: Record<OAuthType, { status: number; message: string }> = {
  hubspot: { status: 400, message: 'missing or unknown auth code' },
  asana: {
    status: 400,
    message:
      'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  },
  gong: { status: 400, message: 'Invalid authorization code: it was already used' },
  'amazon-ads': { status: 400, message: 'The request has an invalid parameter : code' },
};

const OTHER_REDIRECT: Record<OAuthType, { status: number; message: string }> = {
  hubspot: { status: 400, message: 'redirect_uri does not match the redirect URI the code was issued for' },
  asana: REUSED.asana,
  gong: { status: 400, message: 'Invalid redirect_uri: it differs from the one the code was issued for' },
  'amazon-ads': { status: 400, message: 'The request has an invalid parameter : redirect_uri' },
};

const WRONG_SECRET: Record<OAuthType, { status: number; message: string }> = {
  hubspot: { status: 400, message: 'missing or invalid client secret' },
  asana: { status: 400, message: 'Client authentication failed (unknown client_id or wrong client_secret).' },
  gong: { status: 401, message: 'Bad client credentials: send Authorization: Basic base64(client_id:client_secret)' },
  'amazon-ads': { status: 401, message: 'Client authentication failed' },
};

/** The page a redirect URI the app never registered gets, instead of a redirect (RFC 6749 §4.1.2.1). */
const UNREGISTERED: Record<OAuthType, (uri: string) => string> = {
  hubspot: (uri) => `Authorization failed as the redirect URL &#39;${uri}&#39; doesn&#39;t match the app&#39;s registered redirect URL`,
  asana: (uri) => `The redirect_uri ${uri} does not match any redirect URL registered for this app.`,
  gong: (uri) => `The redirect URI ${uri} is not one of the integration&#39;s redirect URIs.`,
  'amazon-ads': (uri) => `An unknown redirect_uri was given: ${uri}. It must be one of the Allowed Return URLs of the security profile.`,
};

let sandbox: Sandbox;
let receiver: CallbackReceiver;
let otherReceiver: CallbackReceiver;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 20 });
  receiver = await startCallbackReceiver();
  otherReceiver = await startCallbackReceiver();
  for (const type of TYPES) {
    sandbox.fakes[type].allowRedirectUri(receiver.url);
    sandbox.fakes[type].allowRedirectUri(otherReceiver.url);
  }
});
afterAll(async () => {
  await receiver.close();
  await otherReceiver.close();
  await sandbox.close();
});
afterEach(() => {
  receiver.received.length = 0;
});

function upstream(type: OAuthType) {
  return sandbox.upstreams[type]!;
}

/** The OAuth app of the fake: client id and secret only (no user tokens). */
function app(type: OAuthType): { client_id: string; client_secret: string } {
  const { client_id, client_secret } = upstream(type).credentials_by_scheme.oauth!;
  return { client_id: client_id!, client_secret: client_secret! };
}

function tokenRequests(type: OAuthType): number {
  return sandbox.fakes[type].stats.tokenRequests;
}

function begin(type: OAuthType): AuthorizationStart {
  return startAuthorization(type, {
    credentials: { client_id: app(type).client_id },
    redirectUri: receiver.url,
    baseUrl: upstream(type).base_url,
    config: upstream(type).config,
  });
}

/** Starts an authorization, approves it on the consent page and returns the start and the callback URL. */
async function approved(type: OAuthType): Promise<{ start: AuthorizationStart; callback: string }> {
  const start = begin(type);
  const { final } = await decideOnConsentPage(start.url, 'approve');
  expect(final.status).toBe(200);
  expect(receiver.received).toHaveLength(1);
  return { start, callback: receiver.received.pop()! };
}

function finish(type: OAuthType, start: AuthorizationStart, callback: string, overrides: Record<string, unknown> = {}) {
  return finishAuthorization(type, {
    credentials: app(type),
    callback,
    state: start.state,
    redirectUri: start.redirectUri,
    baseUrl: upstream(type).base_url,
    config: upstream(type).config,
    ...(start.codeVerifier ? { codeVerifier: start.codeVerifier } : {}),
    ...overrides,
  });
}

function connection(type: OAuthType, credentials: Record<string, unknown>) {
  const info = upstream(type);
  return connect(type, { credentials, baseUrl: info.base_url, allowOrigins: info.allow_origins, config: info.config });
}

/** Runs the manifest's credentials check (a real read) with the given credentials. */
function runCheck(type: OAuthType, credentials: Record<string, unknown>) {
  const { check } = findManifest(type).manifest;
  const conn = connection(type, credentials);
  return { conn, result: conn.execute(check.entity, check.action, check.params ?? {}) as Promise<ListResult> };
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error('expected the call to fail');
  return error as EngineError;
}

describe('OAuth authorization flow', () => {
  test.each(TYPES)('%s: authorize URL from the manifest, consent, Approve, code exchange, then a real execute', async (type) => {
    const start = begin(type);
    const url = new URL(start.url);
    expect(url.origin + url.pathname).toBe(new URL(upstream(type).base_url).origin + FLOWS[type].path);
    expect([...url.searchParams.keys()].sort()).toEqual(FLOWS[type].query);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: app(type).client_id,
      redirect_uri: receiver.url,
      state: start.state,
      scope: FLOWS[type].scope,
    });
    if (start.codeVerifier) {
      expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(start.codeVerifier).digest('base64url'));
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    }
    expect(start.url).not.toContain(app(type).client_secret);

    const { page, final } = await decideOnConsentPage(start.url, 'approve');
    expect(page.headers.get('content-type')).toBe('text/html;charset=utf-8');
    expect(page.text).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
    expect(page.text).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
    expect(page.text).toContain(`<form method="post" action="${FLOWS[type].path}" aria-labelledby="consent-title">`);
    expect(final.text).toBe('connected');
    const callback = new URL(receiver.received.pop()!);
    expect(callback.origin + callback.pathname).toBe(receiver.url);
    expect(callback.searchParams.get('state')).toBe(start.state);

    const clock = createManualClock(Date.parse('2030-01-01T00:00:00.000Z'));
    const handed: Array<Record<string, unknown>> = [];
    const before = tokenRequests(type);
    const credentials = await finish(type, start, callback.toString(), { clock, onCredentialsChange: (c: Record<string, unknown>) => void handed.push(c) });
    expect(tokenRequests(type) - before).toBe(1);
    expect(handed).toEqual([credentials]);
    const expected = ['access_token', 'client_id', 'client_secret', 'expires_at', 'refresh_token', ...(type === 'gong' ? ['api_base_url_for_customer'] : [])];
    expect(Object.keys(credentials).sort()).toEqual(expected.sort());
    expect(credentials).toMatchObject({
      ...app(type),
      expires_at: new Date(Date.parse('2030-01-01T00:00:00.000Z') + FLOWS[type].ttlSeconds * 1000).toISOString(),
    });
    expect(credentials.refresh_token).not.toBe(upstream(type).credentials_by_scheme.oauth!.refresh_token);
    if (type === 'gong') expect(credentials.api_base_url_for_customer).toBe(sandbox.fakes.gong.customerBaseUrl);

    const fresh = runCheck(type, credentials);
    const seeded = runCheck(type, upstream(type).credentials_by_scheme.oauth!);
    expect((await fresh.result).data).toEqual((await seeded.result).data);
    expect(fresh.conn.stats.refreshes).toBe(0);
  });

  test.each(TYPES)('%s: Deny on the consent page is AUTHORIZATION_DENIED, and no code is exchanged', async (type) => {
    const start = begin(type);
    const { final } = await decideOnConsentPage(start.url, 'deny');
    expect(final.status).toBe(200);
    const callback = receiver.received.pop()!;
    expect(Object.fromEntries(new URL(callback).searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the request',
      state: start.state,
    });
    const before = tokenRequests(type);
    const error = await failure(finish(type, start, callback));
    expect(error).toMatchObject({ code: 'AUTHORIZATION_DENIED', status: 403, details: [{ path: '/callback/error', message: 'access_denied' }] });
    expect(tokenRequests(type) - before).toBe(0);
  });

  test.each(TYPES)('%s: a reused code is the upstream refusal as AUTHORIZATION_FAILED, and the tokens it gave are revoked', async (type) => {
    const { start, callback } = await approved(type);
    const first = await finish(type, start, callback);
    const error = await failure(finish(type, start, callback));
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', status: 400, upstream: REUSED[type] });
    // RFC 6749 §4.1.2: the tokens issued from the reused code are revoked, so the first credentials are dead.
    const dead = await failure(runCheck(type, first).result);
    expect(dead.code).toBe('REAUTH_REQUIRED');
  });

  test.each(TYPES)('%s: a redirect URI the app never registered gets an error page, not a redirect', async (type) => {
    const unregistered = 'http://127.0.0.1:9/not-registered';
    const start = startAuthorization(type, {
      credentials: app(type),
      redirectUri: unregistered,
      baseUrl: upstream(type).base_url,
      config: upstream(type).config,
    });
    const page = await fetch(start.url, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain(`<p role="alert">${UNREGISTERED[type](unregistered)}</p>`);
  });

  test.each(TYPES)('%s: exchanging with another redirect URI than the authorization used fails', async (type) => {
    const { start, callback } = await approved(type);
    const error = await failure(finish(type, start, callback, { redirectUri: otherReceiver.url }));
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', status: 400, upstream: OTHER_REDIRECT[type] });
  });

  test.each(TYPES)('%s: a wrong client secret is the upstream refusal, with the secret nowhere in the error', async (type) => {
    const { start, callback } = await approved(type);
    const secret = 'wrong-secret-0123456789';
    const error = await failure(finish(type, start, callback, { credentials: { ...app(type), client_secret: secret } }));
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', upstream: WRONG_SECRET[type] });
    const text = JSON.stringify(error.toJSON()) + error.message;
    for (const value of [secret, new URL(callback).searchParams.get('code')!, start.codeVerifier ?? 'no-verifier']) expect(text).not.toContain(value);
  });

  test.each(['asana', 'amazon-ads'] as const)('%s: PKCE: a verifier that does not match the challenge, or none, is refused', async (type) => {
    const { start, callback } = await approved(type);
    const message = type === 'asana' ? REUSED.asana.message : 'The request has an invalid parameter : code_verifier';
    const wrong = await failure(finish(type, start, callback, { codeVerifier: 'x'.repeat(43) }));
    expect(wrong).toMatchObject({ code: 'AUTHORIZATION_FAILED', upstream: { status: 400, message } });
    const none = await failure(finish(type, { ...start, codeVerifier: undefined }, callback));
    expect(none).toMatchObject({ code: 'AUTHORIZATION_FAILED', upstream: { status: 400, message } });
    // The code was never redeemed by those attempts: the right verifier still gets credentials.
    expect(typeof (await finish(type, start, callback)).access_token).toBe('string');
  });

  test('an expired code (HubSpot: 10 minutes on the fake clock) is BAD_AUTH_CODE', async () => {
    const { start, callback } = await approved('hubspot');
    sandbox.fakes.hubspot.clock.advance(600_000);
    const error = await failure(finish('hubspot', start, callback));
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', upstream: { status: 400, message: 'missing or unknown auth code' } });
  });

  test('a callback whose state is not the one sent fails before any token request', async () => {
    const { start, callback } = await approved('asana');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    const before = tokenRequests('asana');
    const error = await failure(finish('asana', start, forged.toString()));
    expect(error).toMatchObject({
      code: 'AUTHORIZATION_FAILED',
      status: 400,
      details: [{ path: '/callback/state', message: 'does not match the state sent' }],
    });
    expect(tokenRequests('asana') - before).toBe(0);
  });

  test('bad input is a typed error naming the field', async () => {
    expect(() => startAuthorization('shopify', { credentials: { client_id: 'x' }, redirectUri: receiver.url })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', details: [{ path: '/type', message: 'must name a scheme with an authorization flow (none)' }] }),
    );
    expect(() => startAuthorization('hubspot', { credentials: {}, redirectUri: receiver.url })).toThrow(
      expect.objectContaining({ code: 'INVALID_CREDENTIALS', details: [{ path: '/credentials/client_id', message: 'is required (a non-empty string)' }] }),
    );
    expect(() => startAuthorization('hubspot', { credentials: app('hubspot'), redirectUri: '/relative' })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', details: [{ path: '/redirectUri', message: 'must be an absolute http(s) URL without a fragment' }] }),
    );
    expect(() => startAuthorization('amazon-ads', { credentials: app('amazon-ads'), redirectUri: receiver.url, config: { region: 'MARS' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    const error = await failure(
      finishAuthorization('gong', { credentials: { client_id: 'x' }, callback: '?code=a&state=s', state: 's', redirectUri: receiver.url }),
    );
    expect(error).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      details: [{ path: '/credentials/client_secret', message: 'is required (a non-empty string)' }],
    });
  });
});
