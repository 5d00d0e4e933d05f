/**
 * The credentials check through the library (issue 12, section 5): `checkCredentials()` runs each
 * manifest's declared cheap read against the sandbox fakes; credentials a fake refuses fail with
 * INVALID_CREDENTIALS carrying the upstream's reason, never the secret.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, InvalidCredentialsError } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { failure } from '../support/failure.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(() => sandbox?.close());

function open(type: string, credentials?: Record<string, unknown>, onCredentialsChange?: (c: Record<string, unknown>) => void) {
  const info = sandbox.upstreams[type]!;
  return connect(type, {
    credentials: credentials ?? info.credentials,
    config: info.config,
    baseUrl: info.base_url,
    allowOrigins: info.allow_origins,
    rateLimit: false,
    ...(onCredentialsChange ? { onCredentialsChange } : {}),
  });
}

/** Credentials each fake never issued, with the secret the answer must not repeat. */
function refused(type: string): { credentials: Record<string, unknown>; secret: string } {
  const info = sandbox.upstreams[type]!;
  const secret = `never-issued-by-the-fake-${type}`;
  const credentials: Record<string, Record<string, unknown>> = {
    hubspot: { access_token: secret },
    asana: { token: secret },
    'amazon-ads': { ...info.credentials, refresh_token: secret },
    shopify: { ...info.credentials, api_key: secret },
    gong: { access_key: 'NEVERISSUED', access_key_secret: secret },
  };
  return { credentials: credentials[type]!, secret };
}

describe('checkCredentials()', () => {
  test.each([
    ['hubspot', 'contacts', 'list', 'private_app'],
    ['asana', 'users', 'get', 'personal_access_token'],
    ['amazon-ads', 'profiles', 'list', 'oauth'],
    ['shopify', 'shop', 'get', 'token'],
    ['gong', 'workspaces', 'list', 'access_key'],
  ])('%s: the sandbox credentials pass the %s %s check', async (type, entity, action, scheme) => {
    const fake = sandbox.fakes[type as keyof Sandbox['fakes']];
    const before = fake.requests.length;
    expect(await open(type).checkCredentials()).toEqual({ entity, action, auth_scheme: scheme });
    // One read (plus Amazon's token refresh): the check is cheap.
    expect(fake.requests.length - before).toBe(type === 'amazon-ads' ? 2 : 1);
  });

  test.each([
    [
      'hubspot',
      401,
      'HubSpot CRM',
      'hubspot contacts list',
      'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
    ],
    ['asana', 401, 'Asana', 'asana users get', 'Not Authorized'],
    ['amazon-ads', 400, 'Amazon Ads', 'amazon-ads profiles list', 'The request has an invalid grant parameter : refresh_token'],
    ['shopify', 401, 'Shopify', 'shopify shop get', '[API] Invalid API key or access token (unrecognized login or wrong password)'],
    ['gong', 401, 'Gong', 'gong workspaces list', 'Access denied: invalid access key or access key secret'],
  ])('%s: credentials the fake refuses are INVALID_CREDENTIALS with its %i reason', async (type, status, name, label, reason) => {
    const { credentials, secret } = refused(type);
    const error = await failure(open(type, credentials).checkCredentials());
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect({ code: error.code, status: error.status, retryable: error.retryable, message: error.message }).toEqual({
      code: 'INVALID_CREDENTIALS',
      status: 400,
      retryable: false,
      message: `${name} refused these credentials (${status}): ${reason}`,
    });
    expect(error.details).toEqual([{ path: '/credentials', message: `refused by ${name} on the check read ${label}: ${reason}` }]);
    expect({ status: error.upstream?.status, message: error.upstream?.message }).toEqual({ status, message: reason });
    expect(JSON.stringify(error.toJSON())).not.toContain(secret);
  });

  test('gong OAuth: the check spends the single-use refresh token and hands the rotated one over', async () => {
    const fake = sandbox.fakes.gong;
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const spent = fake.currentRefreshToken();
    const handed: Array<Record<string, unknown>> = [];
    const connection = open('gong', { client_id, client_secret, refresh_token: spent }, (next) => handed.push(next));
    expect(await connection.checkCredentials()).toEqual({ entity: 'workspaces', action: 'list', auth_scheme: 'oauth' });
    expect(handed.map((c) => c.refresh_token)).toEqual([fake.currentRefreshToken()]);
    expect(fake.currentRefreshToken()).not.toBe(spent);
    expect(connection.credentials.refresh_token).toBe(fake.currentRefreshToken());
  });

  test('an OAuth client the token endpoint refuses is INVALID_CREDENTIALS too (HubSpot: 400, not invalid_grant)', async () => {
    const { client_secret, refresh_token } = sandbox.upstreams.hubspot!.credentials_by_scheme.oauth!;
    const error = await failure(open('hubspot', { client_id: 'never-issued-client', client_secret, refresh_token }).checkCredentials());
    expect({ code: error.code, status: error.upstream?.status, message: error.message }).toEqual({
      code: 'INVALID_CREDENTIALS',
      status: 400,
      message: 'HubSpot CRM refused these credentials (400): missing or invalid client id',
    });
    expect(JSON.stringify(error.toJSON())).not.toContain(String(client_secret));
  });

  test('an upstream failure that says nothing about the credentials keeps its own code', async () => {
    // 501 is not among the manifest's retried statuses: one answer, at once.
    sandbox.fakes.shopify.faults.failNext(1, 501);
    const error = await failure(open('shopify').checkCredentials());
    expect({ code: error.code, status: error.upstream?.status }).toEqual({ code: 'UPSTREAM_ERROR', status: 501 });
  });
});
