/**
 * Connect sessions and OAuth apps over real HTTP and the built CLI (issue 16): the session body's
 * typed errors, the page's headers, a forged state, and `oauth-apps set|list|remove` on the
 * database the service reads (the secret stored encrypted, never printed).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startAmazonAdsFake } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { runCli } from '../support/cli.js';
import { call, httpCall } from '../support/http-call.js';
import { decideOnConsentPage } from '../support/oauth-consent.js';

const SECRET = 'connect-sessions-test-secret';
let service: HostedService;
let databaseUrl: string;
let dir: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'connect-sessions-'));
  databaseUrl = `sqlite:${join(dir, 'engine.db')}`;
  service = await startHostedService({ databaseUrl, port: 0, secret: SECRET, logger: false, sync: { background: false } });
  const secret = 'ces_connect_sessions_client_secret';
  const client = await service.store.createClient({ name: 'app', secretHash: await hashSecret(secret) });
  token = (await call(service.url, 'POST', '/v1/auth/token', { body: { client_id: client.client_id, client_secret: secret, external_user_id: 'u1' } })).body
    .access_token;
});
afterAll(async () => {
  await service?.close();
});

test('a session body names its bad field: unknown type, a return_url that is not http(s), an unknown field, no token', async () => {
  const unknown = await call(service.url, 'POST', '/v1/connect/sessions', { token, body: { connector_types: ['hubspot', 'salesforce'] } });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.code).toBe('UNKNOWN_CONNECTOR_TYPE');
  expect(unknown.body.error.details).toEqual([{ path: '/connector_types/1', message: 'must be one of amazon-ads, asana, gong, hubspot, shopify' }]);
  const ftp = await call(service.url, 'POST', '/v1/connect/sessions', { token, body: { return_url: 'ftp://example.com/done' } });
  expect(ftp.status).toBe(400);
  expect(ftp.body.error.details).toEqual([{ path: '/return_url', message: 'must be an absolute http(s) URL' }]);
  const extra = await call(service.url, 'POST', '/v1/connect/sessions', { token, body: { ttl: 5 } });
  expect(extra.status).toBe(400);
  expect(extra.body.error.code).toBe('INVALID_REQUEST');
  expect((await call(service.url, 'POST', '/v1/connect/sessions', { body: {} })).status).toBe(401);
});

test('the page answers with a strict CSP and no Referer; an unknown link is 404; a forged state is refused', async () => {
  const created = await call(service.url, 'POST', '/v1/connect/sessions', { token, body: { connector_types: ['Shopify'] } });
  expect(created.status).toBe(201);
  const page = await httpCall(created.body.url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'nonce-/);
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.text).toContain('>Shopify</a>');
  expect(page.text).not.toContain('HubSpot');
  const other = await httpCall(`${service.url}/connect/${'A'.repeat(43)}`);
  expect(other.status).toBe(404);
  expect(other.text).toContain('this connect link is not known');
  const forged = await httpCall(`${service.url}/connect/callback?code=abc&state=${'f'.repeat(64)}.hubspot.nonce.mac`);
  expect(forged.status).toBe(400);
  expect(forged.text).toContain('the authorization came back with a state this service did not issue');
});

test('oauth-apps set, list and remove: the page offers sign-in only while an app is set, and the secret is never shown', async () => {
  const secretFile = join(dir, 'asana-secret.txt');
  writeFileSync(secretFile, 'asana-app-secret-value\n');
  const env = { ENGINE_SECRET: SECRET };
  const set = await runCli(
    ['oauth-apps', 'set', 'asana', '--client-id', '1208000000000001', '--client-secret-file', secretFile, '--database-url', databaseUrl],
    undefined,
    env,
  );
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toEqual({ connector_type: 'asana', client_id: '1208000000000001' });
  const list = await runCli(['oauth-apps', 'list', '--database-url', databaseUrl], undefined, env);
  expect(list.stdout).not.toContain('asana-app-secret-value');
  expect(JSON.parse(list.stdout)).toMatchObject({ connector_type: 'asana', client_id: '1208000000000001' });
  expect(readFileSync(join(dir, 'engine.db')).includes('asana-app-secret-value')).toBe(false);

  const url = (await call(service.url, 'POST', '/v1/connect/sessions', { token, body: {} })).body.url as string;
  expect((await httpCall(`${url}/asana`)).text).toContain('<button type="submit">Continue to Asana</button>');

  const removed = await runCli(['oauth-apps', 'remove', 'asana', '--database-url', databaseUrl], undefined, env);
  expect(JSON.parse(removed.stdout)).toEqual({ connector_type: 'asana', removed: true });
  expect((await runCli(['oauth-apps', 'remove', 'asana', '--database-url', databaseUrl], undefined, env)).code).toBe(1);
  expect((await httpCall(`${url}/asana`)).text).not.toContain('Continue to Asana');
  const shopify = await runCli(
    ['oauth-apps', 'set', 'shopify', '--client-id', 'x', '--client-secret-file', secretFile, '--database-url', databaseUrl],
    undefined,
    env,
  );
  expect(shopify.code).not.toBe(0);
  expect(JSON.parse(shopify.stderr).error.message).toBe(
    '"shopify" is not a connector type with an OAuth authorization flow; those are: amazon-ads, asana, gong, hubspot',
  );
}, 120_000);

test('a sign-in keeps the config the user chose on the page (Amazon Ads region EU): the connector is created with it', async () => {
  const fake = await startAmazonAdsFake({});
  const info = fake.describe();
  const app = info.credentials_by_scheme.oauth!;
  const regional = await startHostedService({
    databaseUrl: `sqlite:${join(dir, 'regional.db')}`,
    port: 0,
    secret: SECRET,
    logger: false,
    sync: { background: false },
    upstreams: { 'amazon-ads': info.base_url },
    allowOrigins: { 'amazon-ads': info.allow_origins },
    oauthApps: { 'amazon-ads': { client_id: app.client_id!, client_secret: app.client_secret! } },
  });
  try {
    fake.allowRedirectUri(`${regional.url}/connect/callback`);
    const clientSecret = 'ces_regional_client_secret';
    const client = await regional.store.createClient({ name: 'regional', secretHash: await hashSecret(clientSecret) });
    const userToken = (
      await call(regional.url, 'POST', '/v1/auth/token', { body: { client_id: client.client_id, client_secret: clientSecret, external_user_id: 'eu-user' } })
    ).body.access_token as string;
    const session = (await call(regional.url, 'POST', '/v1/connect/sessions', { token: userToken, body: { connector_types: ['amazon-ads'] } })).body as {
      url: string;
    };
    const page = await httpCall(`${session.url}/amazon-ads`);
    expect(page.text).toMatch(/<select [^>]*name="config.region"/);
    const authorize = await httpCall(`${session.url}/amazon-ads/authorize`, { form: { 'config.region': 'EU' }, redirect: 'manual' });
    expect(authorize.status).toBe(303);
    const { final } = await decideOnConsentPage(authorize.headers.get('location')!, 'approve');
    expect(final.status).toBe(200);
    const listed = (await call(regional.url, 'GET', '/v1/integrations/connectors', { token: userToken })).body.data as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ connector_type: 'amazon-ads', auth_scheme: 'oauth', config: { region: 'EU' } });
  } finally {
    await regional.close();
    await fake.close();
  }
});
