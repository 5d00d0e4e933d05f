/**
 * The fakes' authorize endpoints and code exchanges as raw HTTP, the way the upstreams answer them
 * (RFC 6749 §4.1, RFC 7636): what is an error page, what is redirected back as an OAuth error, and
 * the token endpoint's answers to a code grant.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { httpCall } from '../support/http-call.js';
import { consentForm, startCallbackReceiver, type CallbackReceiver } from '../support/oauth-consent.js';

let sandbox: Sandbox;
let receiver: CallbackReceiver;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 5 });
  receiver = await startCallbackReceiver();
  for (const type of ['hubspot', 'asana', 'gong', 'amazon-ads'] as const) sandbox.fakes[type].allowRedirectUri(receiver.url);
});
afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

function authorizeUrl(base: string, path: string, params: Record<string, string>): string {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** GET without following redirects: the Location tells what the app would receive. */
async function open(url: string): Promise<{ status: number; location: URLSearchParams | undefined; text: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location).searchParams : undefined, text: await response.text() };
}

describe('authorize endpoints', () => {
  test('an unknown client_id is an error page, never a redirect', async () => {
    const fake = sandbox.fakes.asana;
    const page = await open(
      authorizeUrl(fake.baseUrl, '/-/oauth_authorize', { client_id: '42', redirect_uri: receiver.url, response_type: 'code', state: 's1' }),
    );
    expect(page).toMatchObject({ status: 400, location: undefined });
    expect(page.text).toContain('<p role="alert">Unknown client_id: 42</p>');
  });

  test('a wrong response_type and an unknown scope are redirected back as OAuth errors with the state', async () => {
    const fake = sandbox.fakes.gong;
    const base = { client_id: fake.oauthClientId, redirect_uri: receiver.url, state: 's2', scope: 'api:users:read' };
    const token = await open(authorizeUrl(fake.baseUrl, '/oauth2/authorize', { ...base, response_type: 'token' }));
    expect(token.status).toBe(302);
    expect(Object.fromEntries(token.location!)).toEqual({
      error: 'unsupported_response_type',
      error_description: 'response_type token is not supported',
      state: 's2',
    });
    const scope = await open(authorizeUrl(fake.baseUrl, '/oauth2/authorize', { ...base, response_type: 'code', scope: 'api:users:read api:everything' }));
    expect(Object.fromEntries(scope.location!)).toEqual({ error: 'invalid_scope', error_description: 'Unknown scope: api:everything', state: 's2' });
  });

  test('Gong serves its consent page on the main host only', async () => {
    const fake = sandbox.fakes.gong;
    const params = { client_id: fake.oauthClientId, redirect_uri: receiver.url, response_type: 'code', state: 's3', scope: 'api:users:read' };
    expect((await open(authorizeUrl(fake.baseUrl, '/oauth2/authorize', params))).status).toBe(200);
    expect((await open(authorizeUrl(fake.customerBaseUrl, '/oauth2/authorize', params))).status).toBe(404);
  });

  test('Login with Amazon: PKCE defaults to plain, the redirect names the scope, and the code is exchanged once with its verifier', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const verifier = 'v'.repeat(43);
    const url = authorizeUrl(fake.baseUrl, '/ap/oa', {
      client_id: fake.clientId,
      scope: 'advertising::campaign_management',
      response_type: 'code',
      redirect_uri: receiver.url,
      state: 's4',
      code_challenge: verifier,
    });
    const page = await httpCall(url);
    const form = consentForm(page.text);
    expect(form.fields).toMatchObject({ code_challenge: verifier, state: 's4', redirect_uri: receiver.url });
    const decided = await fetch(new URL(form.action, url), {
      method: 'POST',
      body: new URLSearchParams({ ...form.fields, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(decided.status).toBe(302);
    const back = new URL(decided.headers.get('location')!).searchParams;
    expect([...back.keys()]).toEqual(['code', 'scope', 'state']);
    expect(back.get('scope')).toBe('advertising::campaign_management');
    const exchange = (extra: Record<string, string>) =>
      httpCall(`${fake.baseUrl}/auth/o2/token`, {
        form: {
          grant_type: 'authorization_code',
          code: back.get('code')!,
          redirect_uri: receiver.url,
          client_id: fake.clientId,
          client_secret: fake.clientSecret,
          ...extra,
        },
      });
    const s256 = createHash('sha256').update(verifier).digest('base64url');
    expect((await exchange({ code_verifier: s256 })).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The request has an invalid parameter : code_verifier',
    });
    const tokens = await exchange({ code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(Object.keys(tokens.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(tokens.body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(tokens.body.refresh_token).toMatch(/^Atzr\|IwEB/);
    expect(tokens.body.refresh_token).not.toBe(fake.refreshToken);
    expect((await exchange({ code_verifier: verifier })).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The request has an invalid parameter : code',
    });
  });

  test('a code grant without code or redirect_uri is invalid_request naming it', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const token = (form: Record<string, string>) =>
      httpCall(`${fake.baseUrl}/auth/o2/token`, {
        form: { grant_type: 'authorization_code', client_id: fake.clientId, client_secret: fake.clientSecret, ...form },
      });
    expect((await token({ redirect_uri: receiver.url })).body).toEqual({
      error: 'invalid_request',
      error_description: 'The request is missing a required parameter : code',
    });
    expect((await token({ code: 'ANxyz' })).body).toEqual({ error: 'invalid_grant', error_description: 'The request has an invalid parameter : code' });
  });
});
